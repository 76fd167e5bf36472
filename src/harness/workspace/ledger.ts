/**
 * Per base sandbox: which workspace last merged each file (so a later conflict can say "changed by
 * agent-a's merge", not only "changed in the base"), and a queue that lets one merge run at a time.
 * Merges of parallel agents end close together; planning reads the base and applying writes it, so
 * without the queue two merges could both see the old content and the second would overwrite the
 * first. Kept in a WeakMap: it goes away with the sandbox.
 */
import type { Sandbox } from '../ports.ts';

type Ledger = { mergedBy: Map<string, string>; tail: Promise<unknown> };

const ledgers = new WeakMap<Sandbox, Ledger>();

function ledgerOf(base: Sandbox): Ledger {
  let l = ledgers.get(base);
  if (!l) ledgers.set(base, (l = { mergedBy: new Map(), tail: Promise.resolve() }));
  return l;
}

export function mergeLedger(base: Sandbox): Map<string, string> {
  return ledgerOf(base).mergedBy;
}

/** Runs `fn` after every merge queued before it on this base has finished (or failed). */
export function withMergeLock<T>(base: Sandbox, fn: () => Promise<T>): Promise<T> {
  const l = ledgerOf(base);
  const run = l.tail.then(fn, fn);
  l.tail = run.catch(() => undefined);
  return run;
}
