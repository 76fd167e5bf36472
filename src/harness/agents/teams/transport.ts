/**
 * The port between tabs (issue 13 §4): a team whose teammates live in other tabs exchanges
 * `TeamWire` notes over a `TeamTransport` (in the browser a `BroadcastChannel`, see
 * `src/team-transport/`). The files stay the truth: every tab appends each message it sends or
 * receives to its own copy of the mailbox file, under the lock, and only then acts on it; a read,
 * a claim and a task update are written to each tab's own `.team/` and `.tasks/` the same way.
 *
 * Contract: `post` delivers to every other listener on the same channel (not to the poster), in
 * order, at most once; `listen` returns an unsubscribe; `close` stops both. Nothing is assumed
 * about timing: a tab that dies without a `bye` (a crash, a frozen page) is found out by
 * heartbeats — each tab posts `beat` every `everyMs` of its Clock, and the lead's tab marks a
 * joined teammate gone when its tab missed `missedBeats` of them (`presence.ts`).
 *
 * Who owns what: the lead's tab owns the task board's lock (a teammate in another tab asks it for
 * a task with `claim`, and the answer is decided under the same lock as every local claim), and
 * the working tree (a teammate that joins gets a copy in `welcome`; its changes come back in
 * `offer` and are merged like an isolated teammate's when it finishes).
 */
import type { Task } from '../tasks/graph.ts';
import type { TeamMessage } from './message.ts';
import type { TeammateState } from './state.ts';

/** A changed file of a teammate's copy: its content, or null when it deleted the file. */
export type OfferedFile = { path: string; content: string | null };

export type TeamWire = (
  | { kind: 'message'; tab: string; message: TeamMessage }
  /** A teammate runs in `tab` (sent when it is spawned there, and again on `who`); `join` asks the lead's tab to welcome it. */
  | { kind: 'hello'; tab: string; name: string; state: TeammateState; join?: boolean }
  /** Its tab is closing: the teammate is gone. `name: "lead"`: the lead's team has ended (its tab closed or its run ended). */
  | { kind: 'bye'; tab: string; name: string }
  /** A teammate in `tab` changed state. */
  | { kind: 'state'; tab: string; name: string; to: TeammateState; why: string }
  /** The lead spawned `name` to run in another tab: a tab already waiting to be it says hello again. */
  | { kind: 'invite'; tab: string; name: string }
  /** The lead's tab welcomes the tab `to` as `name`: the working tree now (its own copy), the board, its mail so far. */
  | { kind: 'welcome'; tab: string; to: string; name: string; files: Record<string, string>; tasks: Task[]; mail: TeamMessage[]; autoClaim: boolean; members: string[] }
  /** `name` read these messages in `tab`: the other tabs move their copy of its read cursor past them. */
  | { kind: 'read'; tab: string; name: string; ids: string[] }
  /** An idle auto-claimer in `tab` asks the board's tab (the lead's) for a ready task. */
  | { kind: 'claim'; tab: string; name: string }
  /** The lead's tab claimed `task` for `name` under the board's lock (null with `allDone`: nothing left). */
  | { kind: 'claimed'; tab: string; name: string; task: Task | null; tasks: Task[]; allDone: boolean; contenders: string[]; lockWaits: number }
  /** Tasks a teammate in `tab` created or changed (its task tools): the other tabs write them to their board. */
  | { kind: 'tasks'; tab: string; name: string; tasks: Task[]; changes: string[] }
  /** A teammate's changes so far against the files it was welcomed with (after each wake-up). */
  | { kind: 'offer'; tab: string; name: string; files: OfferedFile[] }
  /** `tab` is alive and beats every `everyMs` of its Clock: the lead's tab marks its teammate gone after missed beats. */
  | { kind: 'beat'; tab: string; everyMs: number }
  /** The lead's tab no longer takes `to` as `name` (nobody joined in time, or it stopped hearing from that tab): `to` stops. */
  | { kind: 'refused'; tab: string; to: string; name: string; why: string }
) & {
  /** The team's key, on every note of a team attached with one (`sender.ts`). */
  key?: string;
};

/** One kind of note (`WireOf<'welcome'>`). */
export type WireOf<K extends TeamWire['kind']> = Extract<TeamWire, { kind: K }>;

export const WIRE_KINDS: ReadonlySet<string> = new Set(['message', 'hello', 'bye', 'state', 'invite', 'welcome', 'read', 'claim', 'claimed', 'tasks', 'offer', 'beat', 'refused']);

export interface TeamTransport {
  post(wire: TeamWire): void;
  listen(listener: (wire: TeamWire) => void): () => void;
  close(): void;
}
