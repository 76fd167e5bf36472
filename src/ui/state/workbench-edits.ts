/**
 * workbench: the person edits the live sandbox (Files panel, terminal) between pulls. When that
 * is allowed, and the `sandbox.changed` event (origin `user`) that records an edit in the log.
 */
import type { Sandbox, TraceEvent } from '../../harness/index.ts';
import { flush } from './run-puller.ts';
import type { RunState } from './run-state.svelte.ts';
import type { RunSessionPort } from './run-types.ts';

/** A command the person ran in the terminal (`ui/terminal/`), and the files it changed. */
export type TerminalCommand = { command: string; exitCode: number; interrupted: boolean; ms: number; changed: string[] };

/** Why the live files cannot be edited now, in words; null when they can. */
export function editBlockOf(s: { readOnly: boolean; cursor: number | null; sandbox: Sandbox | null; events: readonly TraceEvent[]; busy: boolean }): string | null {
  if (s.readOnly) return 'another tab is writing this session, so it is read-only here';
  if (s.cursor !== null) return 'stepped back: these are the files as they were then; step to the end to edit';
  if (!s.sandbox) return 'the sandbox is still starting';
  if (s.events.length === 0) return 'the scenario’s files are written when the run starts: press Step (or send) first, then edit';
  if (s.busy) return 'the agent is working: pause or wait for it, then edit';
  return null;
}

/** The event for a change of `paths` after `last`: between pulls it shares the place (seq, turn) of the event before it. */
export function userChangeEvent(paths: string[], last: TraceEvent | undefined): TraceEvent {
  return { type: 'sandbox.changed', paths, origin: 'user', seq: last?.seq ?? 0, ts: Date.now(), agentId: 'main', turn: last?.turn ?? 0 };
}

/** The event of a terminal command after `last` (its changed files follow as their own event). */
export function terminalCommandEvent(c: TerminalCommand, last: TraceEvent | undefined): TraceEvent {
  const { changed: _changed, ...body } = c;
  return { type: 'terminal.command', ...body, seq: last?.seq ?? 0, ts: Date.now(), agentId: 'main', turn: last?.turn ?? 0 };
}

/**
 * Puts a user event at the end of `run`'s log (after what is buffered), so the panels, replays
 * and step-back show it, and has the session write it with a snapshot of the sandbox.
 */
export async function appendUserEvent(run: RunState, session: RunSessionPort | null, eventAfter: (last: TraceEvent | undefined) => TraceEvent): Promise<void> {
  flush(run);
  const event = eventAfter(run.events.at(-1));
  run.events = run.events.concat(event);
  await session?.recordUserEvent(event, run.sandbox);
}
