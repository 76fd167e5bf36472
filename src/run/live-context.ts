/**
 * What an outside document would put into a live request sent with the user's key: its system
 * prompt and its CLAUDE.md files. A declined or never-trusted (inert) document must not change
 * that request without the user seeing it, so before the first live run of such a document the
 * UI asks: send them (the user has read what they are), or run without them (the app's default
 * system prompt, no CLAUDE.md injected).
 */
import { MEMORY_FILE_NAME } from '../harness/memory/index.ts';
import type { Scenario } from '../scenarios/schema.ts';

export type DocumentLiveContext = {
  /** The document's system prompt, when it sets one. */
  system?: string;
  /** Its CLAUDE.md files (paths relative to the project), whose text would be injected first. */
  claudeMd: string[];
};

/** What the document brings into a live request, or null when it brings nothing of the kind. */
export function documentLiveContext(scenario: Scenario): DocumentLiveContext | null {
  const claudeMd = Object.keys(scenario.files).filter((p) => p === MEMORY_FILE_NAME || p.endsWith(`/${MEMORY_FILE_NAME}`));
  const system = scenario.settings.system;
  if (system === undefined && claudeMd.length === 0) return null;
  return { ...(system !== undefined ? { system } : {}), claudeMd };
}

/**
 * Whether a live run must ask first: the document came from outside, the user did not trust it
 * (declined, or it had nothing to trust and so was never asked), and it brings a system prompt
 * or CLAUDE.md — unless the user already answered for this document.
 */
export function mustConfirmLiveContext(o: { live: boolean; trusted: boolean; outside: boolean; brings: DocumentLiveContext | null; answered: boolean }): boolean {
  return o.live && o.outside && !o.trusted && o.brings !== null && !o.answered;
}
