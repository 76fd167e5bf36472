/**
 * The conversation as a person reads it, derived from the trace alone: settled messages from
 * `message.appended`, plus whatever is still in flight (streamed model text, running tools), so a
 * run looks alive while it is being stepped. Pure and framework-free so it can be unit-tested and
 * recomputed from any prefix of the event log (stepping, replay).
 */
import { slashTab } from '../conversation/slash-panels.ts';
import type {
  EventOf,
  ExitReason,
  Message,
  MessageOrigin,
  ModelError,
  StopDetails,
  TraceEvent,
  Usage,
} from '../../harness/index.ts';
import { blocksOf } from '../../harness/messages.ts';
import * as cost from '../../harness/cost/light.ts';

export type { ToolCallStatus, ToolCallView } from './conversation-tools.ts';
import { collectToolFacts, toolView, type ToolFacts, type ToolCallView } from './conversation-tools.ts';

/** A subagent's own conversation, nested under the `agent` call that started it. */
export type SubagentLane = {
  agentId: string;
  subagentType: string;
  description: string;
  /** Its exit reason once it stopped; undefined while it runs. */
  reason?: ExitReason;
  turns?: number;
  /** Its tokens (input of every kind + output) once it stopped: per-agent usage. */
  tokens?: number;
  /** Its isolated workspace, when it has one (`isolation: worktree`): the merge view shows it. */
  workspace?: { id: string; conflicts: number };
  items: ConversationItem[];
};

export type ConversationItem =
  | { kind: 'user'; key: string; text: string; origin: MessageOrigin }
  | { kind: 'assistant'; key: string; text: string; thinking: string; streaming: boolean }
  | { kind: 'tool'; key: string; call: ToolCallView }
  | { kind: 'composing'; key: string; partialJson: string }
  /**
   * `retry`: while the loop waits to retry, `waiting` until `retryAt` (the event's clock + the
   * wait); `retried` once the next attempt went out; `stopped` when the run ended during the wait.
   */
  | { kind: 'error'; key: string; error: ModelError; attempt: number; retryInMs?: number; retryAt?: number; retry?: 'waiting' | 'retried' | 'stopped' }
  /** `refusal`: the API's stop_details, when it sent them (the refused reply itself is not in the history). */
  | { kind: 'end'; key: string; reason: ExitReason; turns: number; error?: ModelError; refusal?: StopDetails; usd?: number }
  /** The run switched to its fallback model (`model.fallback`). */
  | { kind: 'fallback'; key: string; from: string; to: string; errorKind: string }
  /** Tools the permission pre-filter hid from the model, shown once at the top of the run. */
  | { kind: 'prefilter'; key: string; hidden: { name: string; rule: string }[] }
  /** A replay's first `replay.diverged`: the replies below were recorded for other tool results. */
  | { kind: 'diverged'; key: string; tool: string }
  /** A slash command the harness ran (or refused) instead of asking the model, and what came of it. */
  | { kind: 'slash'; key: string; name: string; args: string; note: string };

type Inflight = { text: Map<number, string>; thinking: Map<number, string>; json: Map<number, string> };


function pushMessage(
  items: ConversationItem[],
  key: string,
  origin: MessageOrigin,
  message: Message,
  facts: Map<string, ToolFacts>,
  streaming: boolean,
): void {
  if (message.role === 'user') {
    // Tool results are shown inside their tool-call cards; only real text is a user bubble.
    const text = blocksOf(message)
      .filter((b) => b.type === 'text')
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('\n');
    if (text) items.push({ kind: 'user', key, text, origin });
    return;
  }
  let text = '';
  let thinking = '';
  let part = 0;
  const flush = () => {
    if (text || thinking) {
      items.push({ kind: 'assistant', key: `${key}.${part++}`, text, thinking, streaming });
    }
    text = '';
    thinking = '';
  };
  for (const b of blocksOf(message)) {
    if (b.type === 'text') text += b.text;
    else if (b.type === 'thinking') thinking += b.thinking;
    else if (b.type === 'tool_use') {
      flush();
      items.push({ kind: 'tool', key: `${key}.${b.id}`, call: toolView(b.id, b.name, b.input, facts.get(b.id)) });
    }
  }
  flush();
}

/**
 * Builds the conversation from the events seen so far. Settled messages are keyed by their index
 * in the message list, so a follow-up run that repeats earlier history does not duplicate them.
 */
/**
 * `settled`: no live run will add to these events (a session restored after a reload, or a run that
 * ended): a tool call left without a result then shows as interrupted rather than still pending.
 */
export function deriveConversation(events: readonly TraceEvent[], opts: { settled?: boolean; prices?: cost.PriceTable } = {}): ConversationItem[] {
  const items = deriveAgent(events, 'main', opts);
  // The run summary: what each of the main agent's runs cost, its subagents and teammates included.
  const perRun = runCosts(events, opts.prices ?? cost.DEFAULT_PRICE_TABLE);
  let n = 0;
  return items.map((item) => (item.kind === 'end' && perRun[n] !== undefined ? { ...item, usd: perRun[n++]! } : item));
}

/** Dollars of each finished run of the main agent, in order. */
function runCosts(events: readonly TraceEvent[], prices: cost.PriceTable): number[] {
  const ledger = new cost.CostLedger(prices);
  const out: number[] = [];
  let startedAt = 0;
  for (const e of events) {
    ledger.add(e);
    if (e.agentId !== 'main') continue;
    if (e.type === 'run.start') startedAt = ledger.totalUsd();
    if (e.type === 'run.end') out.push(ledger.totalUsd() - startedAt);
  }
  return out;
}

/**
 * One agent's conversation: only its own events (the stream interleaves every agent's), and a
 * nested lane under each of its `agent` calls, built the same way from the child's events.
 */
function deriveAgent(events: readonly TraceEvent[], agentId: string, opts: { settled?: boolean }): ConversationItem[] {
  const items = deriveOne(
    events.filter((e) => e.agentId === agentId),
    opts,
  );
  const starts = new Map<string, EventOf<'subagent.start'>>();
  const stops = new Map<string, EventOf<'subagent.stop'>>();
  const workspaces = new Map<string, { id: string; conflicts: number }>();
  for (const e of events) {
    if (e.agentId !== agentId) continue;
    if (e.type === 'subagent.start') starts.set(e.toolUseId, e);
    if (e.type === 'subagent.stop') stops.set(e.toolUseId, e);
    if (e.type === 'workspace.created') workspaces.set(e.forAgentId, { id: e.workspaceId, conflicts: 0 });
    if (e.type === 'workspace.conflict') workspaces.set(e.forAgentId, { id: e.workspaceId, conflicts: (workspaces.get(e.forAgentId)?.conflicts ?? 0) + 1 });
  }
  if (starts.size === 0) return items;
  return items.map((item) => {
    if (item.kind !== 'tool') return item;
    const start = starts.get(item.call.id);
    if (!start) return item;
    const stop = stops.get(item.call.id);
    const lane: SubagentLane = {
      agentId: start.childAgentId,
      subagentType: start.subagentType,
      description: start.description,
      ...(stop ? { reason: stop.reason, turns: stop.turns, tokens: totalTokens(stop.usage) } : {}),
      ...(workspaces.has(start.childAgentId) ? { workspace: workspaces.get(start.childAgentId)! } : {}),
      items: deriveAgent(events, start.childAgentId, opts),
    };
    return { ...item, call: { ...item.call, lane } };
  });
}

function totalTokens(u: Usage): number {
  return u.input_tokens + u.output_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
}

function deriveOne(events: readonly TraceEvent[], opts: { settled?: boolean } = {}): ConversationItem[] {
  const facts = collectToolFacts(events, opts.settled ?? false);
  const settled = new Map<number, { origin: MessageOrigin; message: Message }>();
  const extras: { at: number; item: ConversationItem }[] = [];
  /** The error card of the model call that is failing (and maybe being retried). */
  let failing = null as { at: number; item: ConversationItem; key: string } | null;
  let run = 0;
  // The model reply being streamed: text / thinking per block index, or the finished message.
  let inflight: Inflight | null = null;
  let inflightResponse: Message | null = null;
  let lastIndex = -1;
  /** Where the stored history's index 0 sits in this view (it moves when a layer rewrites the history). */
  let indexOffset = 0;
  let lastStopDetails: StopDetails | undefined;
  let diverged = false;

  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    switch (e.type) {
      case 'run.start':
        run++;
        failing = null;
        break;
      case 'model.request':
        inflight = { text: new Map(), thinking: new Map(), json: new Map() };
        inflightResponse = null;
        if (failing?.item.kind === 'error' && failing.item.retry === 'waiting') failing.item = { ...failing.item, retry: 'retried' };
        break;
      case 'model.delta': {
        if (!inflight) break;
        const d = e.delta;
        const map = d.kind === 'text' ? inflight.text : d.kind === 'thinking' ? inflight.thinking : inflight.json;
        const add = d.kind === 'input_json' ? d.partial_json : d.text;
        map.set(e.index, (map.get(e.index) ?? '') + add);
        break;
      }
      case 'model.response':
        inflightResponse = e.message;
        lastStopDetails = e.stopDetails;
        failing = null;
        break;
      case 'model.error': {
        inflight = null;
        inflightResponse = null;
        // Retries of one call share a card that shows the latest attempt, not one card each.
        const item: ConversationItem = {
          kind: 'error',
          key: failing?.key ?? `err.${run}.${e.seq}`,
          error: e.error,
          attempt: e.attempt,
          retryInMs: e.retryInMs,
          ...(e.retryInMs !== undefined ? { retryAt: e.ts + e.retryInMs, retry: 'waiting' as const } : {}),
        };
        if (failing) failing.item = item;
        else {
          failing = { at: lastIndex, item, key: item.key };
          extras.push(failing);
        }
        break;
      }
      case 'message.appended':
        if (e.origin === 'assistant') {
          inflight = null;
          inflightResponse = null;
        }
        settled.set(e.index + indexOffset, { origin: e.origin, message: e.message });
        lastIndex = Math.max(lastIndex, e.index + indexOffset);
        break;
      case 'history.rewritten':
        // A compaction layer shortened the stored history; later indexes count from the new one.
        // The conversation keeps showing what happened, so map them past what is already shown.
        indexOffset = lastIndex + 1 - e.messages.length;
        break;
      case 'replay.diverged':
        // One divider, above the first reply given after the first differing result: from there on
        // every reply is the recording's, whatever the later calls return (their cards say so too).
        if (!diverged) extras.push({ at: lastIndex, item: { kind: 'diverged', key: `diverged.${run}.${e.seq}`, tool: e.name } });
        diverged = true;
        break;
      case 'model.fallback':
        extras.push({ at: lastIndex, item: { kind: 'fallback', key: `fallback.${run}.${e.seq}`, from: e.from, to: e.to, errorKind: e.error.kind } });
        break;
      case 'slash.command':
        if (e.agentId === 'main') extras.push({ at: lastIndex, item: { kind: 'slash', key: `slash.${run}.${e.seq}`, name: e.name, args: e.args, note: slashNote(e, events, i) } });
        break;
      case 'permission.prefilter':
        if (e.hidden.length > 0) extras.push({ at: lastIndex, item: { kind: 'prefilter', key: `prefilter.${run}.${e.seq}`, hidden: e.hidden } });
        break;
      case 'run.end':
        inflight = null;
        inflightResponse = null;
        if (failing?.item.kind === 'error' && failing.item.retry === 'waiting') failing.item = { ...failing.item, retry: 'stopped' };
        extras.push({
          at: lastIndex,
          item: {
            kind: 'end',
            key: `end.${run}.${i}`,
            reason: e.reason,
            turns: e.turns,
            error: e.error,
            ...(e.reason === 'refusal' ? { refusal: lastStopDetails ?? { type: 'refusal' as const, category: null, explanation: null } } : {}),
          },
        });
        break;
    }
  }

  const items: ConversationItem[] = [];
  const placeExtras = (upTo: number) => {
    while (extras.length && extras[0]!.at <= upTo) items.push(extras.shift()!.item);
  };
  placeExtras(-1);
  for (const index of [...settled.keys()].sort((a, b) => a - b)) {
    const { origin, message } = settled.get(index)!;
    pushMessage(items, `m${index}`, origin, message, facts, false);
    placeExtras(index);
  }
  for (const { item } of extras) items.push(item);

  if (inflightResponse) {
    pushMessage(items, 'inflight', 'assistant', inflightResponse, facts, true);
  } else if (inflight) {
    const pending: Inflight = inflight;
    const indices = [...new Set([...pending.text.keys(), ...pending.thinking.keys(), ...pending.json.keys()])].sort(
      (a, b) => a - b,
    );
    for (const ix of indices) {
      const text = pending.text.get(ix);
      const thinking = pending.thinking.get(ix);
      const json = pending.json.get(ix);
      if (text !== undefined || thinking !== undefined) {
        items.push({ kind: 'assistant', key: `inflight.${ix}`, text: text ?? '', thinking: thinking ?? '', streaming: true });
      } else if (json !== undefined) {
        items.push({ kind: 'composing', key: `inflight.${ix}`, partialJson: json });
      }
    }
    if (indices.length === 0) {
      items.push({ kind: 'assistant', key: 'inflight.wait', text: '', thinking: '', streaming: true });
    }
  }
  return items;
}

/** What the page says about a slash command: the tab it opened, or how the run ended (the next transition). */
function slashNote(e: Extract<TraceEvent, { type: 'slash.command' }>, events: readonly TraceEvent[], from: number): string {
  const tab = slashTab(e.panel);
  if (tab) return `Opened the ${tab.label} tab. No model call: Claude Code shows this without asking the model.`;
  if (e.kind === 'custom') return `Expanded ${e.path ?? 'the command'} into the prompt below${e.allowedTools?.length ? `; allowed without asking for this prompt: ${e.allowedTools.join(', ')}` : ''}.${e.warnings?.length ? ` ${e.warnings.join(' ')}` : ''}`;
  for (let j = from + 1; j < events.length; j++) {
    const t = events[j]!;
    if (t.type === 'transition' && t.agentId === e.agentId) return t.detail ?? '';
  }
  return '';
}
