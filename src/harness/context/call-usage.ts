/**
 * The usage of a summary call (auto-compact's, a collapse range's), folded from its stream as the
 * API reports it: `message_start` gives the input side, `message_delta` the running totals. The
 * numbers go into the trace so the cost ledger can price the call; `null` until the API said any.
 */
import { emptyUsage, type Usage } from '../messages.ts';
import type { ModelStreamEvent } from '../ports.ts';

/** The fields the API actually sent (it may send `null` for a cache field it does not report). */
function definedUsage(u: Partial<Usage>): Partial<Usage> {
  return Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined && v !== null)) as Partial<Usage>;
}

/** `usage` after one more stream event of the call. */
export function foldCallUsage(usage: Usage | null, ev: ModelStreamEvent): Usage | null {
  if (ev.type === 'message_start') return { ...emptyUsage(), ...definedUsage(ev.message.usage) };
  if (ev.type === 'message_delta' && ev.usage) return { ...(usage ?? emptyUsage()), ...definedUsage(ev.usage) };
  return usage;
}
