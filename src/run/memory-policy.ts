/**
 * Which memories a run of a scenario may read and where what it remembers goes. A document's
 * words are not the user's: a "Remember: …" in a link's prompt is the link talking.
 *
 * - A prompt the user typed: its facts are the user's (origin `user`, with the session).
 * - The document's own prompt, document trusted (built-in, or trusted in the dialog): its facts
 *   are saved tagged with the document (scenario id + trust key) and go only into later runs of
 *   that same document — a lesson that says "Remember: we deploy on Tuesdays" can show the memory
 *   coming back, but the fact never steers the user's other sessions.
 * - The document's own prompt, document untrusted (declined, or inert = never trusted): nothing is
 *   saved; the `memory.extracted` event lists each fact with the reason.
 *
 * Reading: every run sees the user's memories; a document's memories only in runs of that document.
 */
import type { MemoryOrigin, MemoryStore } from '../harness/ports.ts';
import { refusingStore, taggingStore } from '../harness/memory/index.ts';

/** The document a run comes from: its id, title and trust key. */
export type RunDocument = { id: string; title: string; hash: string };

export type MemoryPolicyInput = {
  store: MemoryStore;
  document: RunDocument;
  trusted: boolean;
  /** Who wrote the prompt of this run. */
  promptFrom: 'user' | 'document';
  /** The session the run is recorded in (asked when a fact is saved, after the session exists). */
  sessionId?: string | (() => string | undefined);
};

export const UNTRUSTED_MEMORY =
  'not kept: this "remember" came from an untrusted scenario (a link or file you have not trusted), so it is the document talking, not you. Type it yourself, or add it in the Memory panel, to keep it';

/** The store the loop saves "remember: …" facts through (tagged, or refusing every write). */
export function memoryStoreForRun(p: MemoryPolicyInput): MemoryStore {
  const session = (): { sessionId?: string } => {
    const id = typeof p.sessionId === 'function' ? p.sessionId() : p.sessionId;
    return id ? { sessionId: id } : {};
  };
  if (p.promptFrom === 'user') return taggingStore(p.store, () => ({ kind: 'user', ...session() }));
  if (!p.trusted) return refusingStore(p.store, UNTRUSTED_MEMORY);
  const { id, title, hash } = p.document;
  return taggingStore(p.store, (): MemoryOrigin => ({ kind: 'document', scenarioId: id, hash, title, ...session() }));
}

/** Whether `prompt` is one of the document's own prompts (pre-filled follow-ups included). */
export function promptIsDocuments(prompt: string | undefined, documentPrompts: readonly string[]): boolean {
  return prompt === undefined || documentPrompts.some((p) => p.trim() === prompt.trim());
}
