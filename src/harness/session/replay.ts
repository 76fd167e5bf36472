/**
 * `replaySession`: rebuilds a conversation from its log, the way the loop built it live.
 *
 * - The history: `message.appended` at a new index appends, at an existing index replaces (the
 *   loop merges user-side content into the last user message); `history.rewritten` (a compaction)
 *   replaces the whole history, and later indexes count from it. A run that ended
 *   `prompt_blocked` drops the prompt it had appended, as the loop did.
 * - The runs: where each started and ended, why, its turns and usage. A run with no `run.end`
 *   was cut off (a reload, a crash, a fork mid-run): the session is `interrupted`.
 * - The carry-over state for the next run: `contextState` from the last `session.run_result`.
 * - `resumeMessages`: the history repaired (`repairTranscript`) so it can be sent again.
 *
 * Session-scoped permission grants ("allow for this session") are deliberately not in the log
 * and never restored: a resumed or forked session is a new trust domain (seed 002 §7). The result
 * says so (`grantsRestored: false`, `notice`) so the UI can tell the person.
 */
import type { ContextState } from '../context/state.ts';
import type { Message, Usage } from '../messages.ts';
import { addUsage, emptyUsage, textOf } from '../messages.ts';
import type { ExitReason, TraceEvent } from '../trace.ts';
import { repairTranscript } from './repair.ts';
import type { SessionLogEvent } from './types.ts';

export type ReplayedRun = {
  /** Log seq of its `run.start`. */
  startSeq: number;
  /** Log seq of its `run.end`; null when it never ended. */
  endSeq: number | null;
  model: string;
  modelClient: string;
  /** The prompt that started it (text of the user message it appended first), when known. */
  prompt: string | null;
  reason: ExitReason | null;
  turns: number;
  usage: Usage;
};

export type ReplayedSession = {
  /** The history exactly as the log has it (it may end with an unanswered tool call). */
  messages: Message[];
  /** The history made valid to send again; pass it as the next run's earlier messages. */
  resumeMessages: Message[];
  /** What `repairTranscript` changed, in words (empty when nothing). */
  repairs: string[];
  runs: ReplayedRun[];
  /** The last run never ended (a `run.start` without its `run.end`). */
  interrupted: boolean;
  /** The last run's exit reason, when it ended. */
  lastReason: ExitReason | null;
  /** Model calls over the whole session. */
  turns: number;
  /** Token usage over the whole session, including a run that was cut off. */
  usage: Usage;
  /** The context pipeline's state after the last finished run (null before any). */
  contextState: ContextState | null;
  /**
   * True when a compaction changed the history after that state was saved (a run cut off
   * after it): references in the history may then point at originals the state lacks.
   */
  contextStateStale: boolean;
  /** The last compaction that rewrote the history. */
  lastRewrite: { seq: number; messages: Message[]; layers: string[]; messagesBefore: number } | null;
  /** Always false: permission grants are never restored. */
  grantsRestored: false;
  notice: string;
};

export const GRANTS_NOT_RESTORED =
  'Permission grants given "for this session" were not restored: a resumed or forked session starts with none, so you will be asked again.';

export function replaySession(log: readonly SessionLogEvent[], opts: { agentId?: string } = {}): ReplayedSession {
  const agentId = opts.agentId ?? 'main';
  let messages: Message[] = [];
  const runs: ReplayedRun[] = [];
  let run: (ReplayedRun & { lengthAtStart: number; responses: Usage }) | null = null;
  let contextState: ContextState | null = null;
  let contextStateStale = false;
  let lastRewrite: ReplayedSession['lastRewrite'] = null;
  let pastRunsUsage = emptyUsage();
  let pastTurns = 0;

  log.forEach((e, i) => {
    const seq = i + 1;
    if (e.type === 'session.run_result') {
      contextState = e.contextState;
      contextStateStale = false;
      return;
    }
    if (e.type === 'session.snapshot' || e.type === 'session.workbench' || (e as TraceEvent).agentId !== agentId) return;
    switch (e.type) {
      case 'run.start':
        if (run) finishCutRun(run);
        run = {
          startSeq: seq,
          endSeq: null,
          model: e.model,
          modelClient: e.modelClient,
          prompt: null,
          reason: null,
          turns: 0,
          usage: emptyUsage(),
          lengthAtStart: messages.length,
          responses: emptyUsage(),
        };
        runs.push(run);
        break;
      case 'message.appended':
        if (run && run.prompt === null && e.origin === 'user') run.prompt = textOf(e.message);
        if (e.index < messages.length) {
          messages = [...messages.slice(0, e.index), e.message, ...messages.slice(e.index + 1)];
        } else {
          messages = [...messages, e.message];
        }
        break;
      case 'compaction.layer':
        if (e.committed && contextState) contextStateStale = true;
        break;
      case 'history.rewritten':
        messages = [...e.messages];
        lastRewrite = { seq, messages: e.messages, layers: e.layers, messagesBefore: e.messagesBefore };
        if (contextState) contextStateStale = true;
        break;
      case 'turn.start':
        if (run) run.turns += 1;
        break;
      case 'model.response':
        if (run) run.responses = e.totalUsage;
        break;
      case 'run.end':
        if (!run) break;
        run.endSeq = seq;
        run.reason = e.reason;
        run.turns = e.turns;
        run.usage = e.usage;
        if (e.reason === 'prompt_blocked') messages = messages.slice(0, run.lengthAtStart);
        pastRunsUsage = addUsage(pastRunsUsage, e.usage);
        pastTurns += e.turns;
        run = null;
        break;
      default:
        break;
    }
  });

  function finishCutRun(r: NonNullable<typeof run>): void {
    r.usage = r.responses;
    pastRunsUsage = addUsage(pastRunsUsage, r.usage);
    pastTurns += r.turns;
  }
  const cut = run as (ReplayedRun & { responses: Usage }) | null;
  let usage = pastRunsUsage;
  let turns = pastTurns;
  if (cut) {
    cut.usage = cut.responses;
    usage = addUsage(usage, cut.usage);
    turns += cut.turns;
  }

  const repaired = repairTranscript(messages);
  const last = runs[runs.length - 1];
  return {
    messages,
    resumeMessages: repaired.messages,
    repairs: repaired.repairs,
    runs: runs.map(({ startSeq, endSeq, model, modelClient, prompt, reason, turns: t, usage: u }) => ({
      startSeq,
      endSeq,
      model,
      modelClient,
      prompt,
      reason,
      turns: t,
      usage: u,
    })),
    interrupted: last !== undefined && last.endSeq === null,
    lastReason: last?.reason ?? null,
    turns,
    usage,
    contextState,
    contextStateStale,
    lastRewrite,
    grantsRestored: false,
    notice: GRANTS_NOT_RESTORED,
  };
}
