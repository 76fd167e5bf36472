/**
 * Editing what is pending at a breakpoint, as a fork. The live generator is never changed: an
 * edit builds the history a new run starts from, and (for a tool input) the assistant turn that
 * run replays first, so the loop validates, asks about and runs the edited call exactly as if the
 * model had proposed it.
 *
 * What can be edited, by the last event pulled:
 * - `tool.proposed` (any of a reply's calls: all are proposed before any runs) — the input JSON of
 *   each call of that reply;
 * - `model.request` — the text of the history's last user message (the request's messages are
 *   built from it, so the edited request is what the model then receives).
 */
import type { ContentBlock, Message, TraceEvent } from '../../harness/index.ts';
import { repairTranscript, replaySession } from '../../harness/session/light.ts';
import type { ScriptedBlock, ScriptedTurn } from '../../model/scripted/script.ts';

export type PendingCall = { toolUseId: string; name: string; input: unknown };

/** What the learner may edit now, judged from the last event. */
export type Pending = { kind: 'tool'; calls: PendingCall[] } | { kind: 'request'; text: string } | null;

/** The conversation's history as the loop holds it after `events`. */
export function historyOf(events: readonly TraceEvent[]): Message[] {
  return replaySession(events).messages;
}

const textOfBlocks = (content: Message['content']) =>
  typeof content === 'string' ? content : content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');

export function pendingAt(events: readonly TraceEvent[]): Pending {
  const last = events.at(-1);
  // Forks edit the main conversation; a subagent's pending call is not one of its calls.
  if (!last || last.agentId !== 'main') return null;
  if (last.type === 'tool.proposed') {
    // The reply's calls: the run of tool.proposed events this one ends.
    const calls: PendingCall[] = [];
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type !== 'tool.proposed') break;
      calls.unshift({ toolUseId: e.toolUseId, name: e.name, input: e.input });
    }
    return { kind: 'tool', calls };
  }
  if (last.type === 'model.request') {
    const lastUser = historyOf(events).at(-1);
    if (lastUser?.role !== 'user') return null;
    return { kind: 'request', text: textOfBlocks(lastUser.content) };
  }
  return null;
}

export type ForkPlan = { ok: true; history: Message[]; replayFirst?: ScriptedTurn; note: string } | { ok: false; error: string };

/**
 * At a `tool.proposed` stop: the history without the reply that proposed the calls, and that
 * reply with `edits` (tool id → new input) as the turn to replay first. Edited calls get a new
 * id, so the trace tells the original call and the edited one apart.
 */
export function forkWithToolInputs(
  events: readonly TraceEvent[],
  editList: Iterable<readonly [string, Record<string, unknown>]>,
  suffix: string,
): ForkPlan {
  const edits = new Map(editList);
  const history = historyOf(events);
  const reply = history.at(-1);
  if (reply?.role !== 'assistant' || typeof reply.content === 'string') {
    return { ok: false, error: 'There is no pending model reply to edit here: stop at a tool.proposed event first.' };
  }
  const content: ScriptedBlock[] = [];
  for (const b of reply.content) {
    if (b.type === 'text') content.push({ type: 'text', text: b.text });
    else if (b.type === 'thinking') content.push({ type: 'thinking', thinking: b.thinking });
    else if (b.type === 'tool_use') {
      const edited = edits.get(b.id);
      content.push({ type: 'tool_use', id: edited ? `${b.id}_${suffix}` : b.id, name: b.name, input: edited ?? b.input });
    }
  }
  const names = reply.content.flatMap((b) => (b.type === 'tool_use' && edits.has(b.id) ? [b.name] : []));
  if (names.length === 0) return { ok: false, error: 'None of the calls of this reply was edited.' };
  return {
    ok: true,
    history: history.slice(0, -1),
    replayFirst: { content, stop_reason: 'tool_use' },
    note: `edited the input of ${names.join(', ')}`,
  };
}

/** At a `model.request` stop: the history with its last user message's text replaced by `text`. */
export function forkWithUserText(events: readonly TraceEvent[], text: string): ForkPlan {
  if (!text.trim()) return { ok: false, error: 'The message cannot be empty.' };
  const history = historyOf(events);
  const last = history.at(-1);
  if (last?.role !== 'user') return { ok: false, error: 'The next request does not end with a user message here: stop at a model.request event.' };
  let content: Message['content'];
  if (typeof last.content === 'string') content = text;
  else {
    // Tool results stay; the text blocks become the one edited text, where the first one was.
    const at = last.content.findIndex((b) => b.type === 'text');
    const kept: ContentBlock[] = last.content.filter((b) => b.type !== 'text');
    const block: ContentBlock = { type: 'text', text };
    content = at < 0 ? [...kept, block] : [...kept.slice(0, at), block, ...kept.slice(at)];
  }
  return { ok: true, history: [...history.slice(0, -1), { role: 'user', content }], note: 'edited the last user message of the request' };
}

/**
 * Take over: the history so far, with calls that have no result yet closed as interrupted.
 * `continueNow` says the model can be asked at once (it ends with the user's side); otherwise
 * the model has just answered and the next prompt goes to the live model.
 */
export function takeOverHistory(events: readonly TraceEvent[]): { history: Message[]; continueNow: boolean } {
  const history = repairTranscript(historyOf(events)).messages;
  return { history, continueNow: history.at(-1)?.role === 'user' };
}
