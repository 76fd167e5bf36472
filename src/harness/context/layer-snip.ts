/**
 * Layer 2, snip (off by default): keeps the last K exchanges and drops older whole exchanges, so a
 * `tool_use` always leaves together with its `tool_result`. The first user message (the task) is
 * always kept, with a marker saying how much was removed. It waits until `slack` exchanges beyond
 * the window have piled up and then cuts back to K in one go: one cache break per `slack` turns,
 * not one per turn.
 */
import type { Message } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { exchangesOf, messagePreview } from './history-shape.ts';
import { layerEvent, type LayerInput, type LayerOutput } from './layer.ts';
import type { CollapseEntry } from './state.ts';

const MARKER_PREFIX = '[snip] ';
const COUNT = /\((\d+) messages so far\)/;

function marker(total: number): string {
  return (
    `${MARKER_PREFIX}Earlier exchanges of this conversation were removed to save context (${total} messages so far). ` +
    'The request above is the original task; what follows is the most recent work.'
  );
}

/** The first message with the snip marker added or updated. */
function markFirst(first: Message, removed: number): Message {
  const blocks = blocksOf(first);
  const old = blocks.find((b) => b.type === 'text' && b.text.startsWith(MARKER_PREFIX));
  const already = old && old.type === 'text' ? Number(COUNT.exec(old.text)?.[1] ?? 0) : 0;
  const kept = blocks.filter((b) => b !== old);
  return { role: first.role, content: [...kept, { type: 'text', text: marker(already + removed) }] };
}

/** Collapse ranges after a cut of messages 1..cut: shifted down, or dropped when they were cut. */
export function shiftCollapses(entries: readonly CollapseEntry[], cut: number): CollapseEntry[] {
  return entries.filter((e) => e.from > cut).map((e) => ({ ...e, from: e.from - cut, to: e.to - cut }));
}

export function snipLayer(input: LayerInput): LayerOutput {
  const { messages, settings, state } = input;
  const before = input.tokensOf(messages);
  const none = (reason: string): LayerOutput => ({
    messages,
    state,
    event: layerEvent('snip', { fired: false, committed: false, tokensBefore: before, tokensAfter: before, reason, changes: [] }),
  });
  if (!settings.snip.enabled) return none('switched off');
  const { keepLastExchanges: keep, slack } = settings.snip;
  const exchanges = exchangesOf(messages);
  const excess = exchanges.length - keep;
  if (excess < slack) return none(`${exchanges.length} exchanges; snips when more than ${keep} + ${slack}`);
  const lastDropped = exchanges[excess - 1]!;
  // Exchanges of a valid history are contiguous from message 1, so messages 1..cut go.
  const cut = lastDropped.to;
  if (exchanges[0]!.from !== 1 || messages[cut + 1]?.role !== 'assistant') return none('the history is not in exchange shape; nothing snipped');
  const next = [markFirst(messages[0]!, cut), ...messages.slice(cut + 1)];
  const after = input.tokensOf(next);
  return {
    messages: next,
    state: { ...state, collapses: shiftCollapses(state.collapses, cut) },
    firstChanged: 0,
    event: layerEvent('snip', {
      fired: true,
      committed: true,
      tokensBefore: before,
      tokensAfter: after,
      reason: `dropped the oldest ${excess} exchanges, keeping the last ${keep}`,
      changes: [{ kind: 'messages_removed', from: 1, to: cut, count: cut, preview: messagePreview(messages[1]) }],
    }),
  };
}
