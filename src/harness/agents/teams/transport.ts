/**
 * The port between tabs (issue 13 §4): a team whose teammates live in other tabs exchanges
 * `TeamWire` notes over a `TeamTransport` (in the browser a `BroadcastChannel`, see
 * `src/team-transport/`). The files stay the truth: every tab appends each message it sends or
 * receives to its own copy of the mailbox file, under the lock, and only then acts on it.
 *
 * Contract: `post` delivers to every other listener on the same channel (not to the poster), in
 * order, at most once; `listen` returns an unsubscribe; `close` stops both. Nothing is assumed
 * about timing: a tab that closes without a `bye` is found out by whoever watches presence.
 */
import type { TeamMessage } from './message.ts';
import type { TeammateState } from './state.ts';

export type TeamWire =
  | { kind: 'message'; tab: string; message: TeamMessage }
  /** A teammate runs in `tab` (sent when it is spawned there, and again on `who`). */
  | { kind: 'hello'; tab: string; name: string; state: TeammateState }
  /** Its tab is closing: the teammate is gone. */
  | { kind: 'bye'; tab: string; name: string }
  /** A teammate in `tab` changed state. */
  | { kind: 'state'; tab: string; name: string; to: TeammateState; why: string };

export interface TeamTransport {
  post(wire: TeamWire): void;
  listen(listener: (wire: TeamWire) => void): () => void;
  close(): void;
}
