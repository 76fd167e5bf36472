/**
 * Where things are in a session log, as the panels need them. Pure (unit-tested in
 * test/unit/ui-sessions-log.test.ts).
 *
 * The panels show `traceEventsOf(log)`: the log without the session's own records (snapshots,
 * run results). A fork is made at a *log seq* (1-based position in the whole log), so an event
 * row's index must be mapped back.
 */
import type { ContextState } from '../../harness/context/index.ts';
import type { RunResult } from '../../harness/index.ts';
import type { ReplayedSession } from '../../harness/session/light.ts';
import { isSessionMarker, type SessionLogEvent } from '../../harness/session/light.ts';

/**
 * The log seq of the `index`-th (0-based) trace event of `log`, or null when the log has fewer.
 */
export function logSeqOfEvent(log: readonly SessionLogEvent[], index: number): number | null {
  if (!Number.isInteger(index) || index < 0) return null;
  let n = -1;
  for (let i = 0; i < log.length; i++) {
    if (isSessionMarker(log[i]!)) continue;
    n++;
    if (n === index) return i + 1;
  }
  return null;
}

type Block = { type: string; text?: string };

/**
 * The memory text the conversation's first run sent (CLAUDE.md files and chosen memories), so
 * follow-ups after a resume send the same message 0 and keep the cached prefix. The loop puts it
 * as the first text block of the first message of every request; `memory.injected` says whether
 * there was any. Undefined when the log does not tell (no run with a request yet).
 */
export function memoryTextOf(log: readonly SessionLogEvent[]): string | undefined {
  let injected: boolean | null = null;
  for (const e of log) {
    if (isSessionMarker(e) || e.agentId !== 'main') continue;
    if (e.type === 'memory.injected') injected = e.files.length + e.chosen.length > 0;
    if (e.type === 'model.request') {
      if (injected === null) return undefined;
      if (!injected) return '';
      const first = e.request.messages[0];
      const block = Array.isArray(first?.content) ? (first.content[0] as Block | undefined) : undefined;
      return block?.type === 'text' && typeof block.text === 'string' ? block.text : undefined;
    }
  }
  return undefined;
}

/**
 * What the run controller needs to show a replayed session as if its last run had just ended:
 * the history to continue from and the context state to carry over. An interrupted session ends
 * `aborted` (its unanswered tool calls are closed by the repair).
 */
export function resultOfReplay(replay: ReplayedSession, fresh: () => ContextState): RunResult {
  return {
    reason: replay.interrupted ? 'aborted' : (replay.lastReason ?? 'aborted'),
    messages: replay.resumeMessages,
    turns: replay.turns,
    usage: replay.usage,
    contextState: replay.contextState ?? fresh(),
  };
}
