/**
 * A prompt-cache simulator: given the requests of a session in order, the usage the API would
 * report for each (`cache_read_input_tokens`, `cache_creation_input_tokens`, `input_tokens`).
 * For the scripted model (realistic cache numbers offline) and the benchmarks.
 *
 * Model of the API (REFERENCE.md, "Prompt caching"): entries are written at breakpoints whose
 * prefix is at least `minTokens` long; a breakpoint reads the longest cached prefix ending at it
 * or at one of the 20 blocks before it; creation is everything from the read point to the last
 * breakpoint; the rest is uncached input. TTL is ignored (reset the state to model an expiry);
 * the store keeps the newest `maxEntries` entries. Tokens come from the estimator, not a tokenizer.
 */
import type { Usage } from '../messages.ts';
import { linearize, totalTokens, type PrefixRequest } from './prefix.ts';

export type CacheSimState = {
  /** Cached prefixes: hash of the prefix → its tokens, oldest first. */
  entries: { hash: number; tokens: number }[];
};

export type CacheSimOptions = { minTokens?: number; lookbackBlocks?: number; maxEntries?: number };

export const emptyCacheSim = (): CacheSimState => ({ entries: [] });

export function simulateCacheUsage(
  prev: CacheSimState,
  request: PrefixRequest,
  opts: CacheSimOptions = {},
): { usage: Usage; next: CacheSimState } {
  const minTokens = opts.minTokens ?? 1_024;
  const lookback = opts.lookbackBlocks ?? 20;
  const maxEntries = opts.maxEntries ?? 64;
  const items = linearize(request);
  const total = totalTokens(items);
  const cached = new Map(prev.entries.map((e) => [e.hash, e.tokens]));
  // Positions of real blocks, so the look-back counts blocks, not message boundaries.
  const blockPos: number[] = [];
  items.forEach((it, i) => it.isBlock && blockPos.push(i));
  let read = 0;
  let lastBp = -1;
  const written: { hash: number; tokens: number }[] = [];
  blockPos.forEach((pos, bi) => {
    const it = items[pos]!;
    if (!it.breakpoint) return;
    lastBp = pos;
    for (let j = bi; j >= Math.max(0, bi - lookback); j--) {
      const cand = items[blockPos[j]!]!;
      if (cached.has(cand.hash)) {
        read = Math.max(read, cand.tokens);
        break;
      }
    }
    if (it.tokens >= minTokens) written.push({ hash: it.hash, tokens: it.tokens });
  });
  const writeEnd = lastBp >= 0 && items[lastBp]!.tokens >= minTokens ? items[lastBp]!.tokens : 0;
  const creation = Math.max(0, writeEnd - read);
  const entries = [...prev.entries.filter((e) => !written.some((w) => w.hash === e.hash)), ...written].slice(-maxEntries);
  return {
    usage: { input_tokens: total - read - creation, output_tokens: 0, cache_creation_input_tokens: creation, cache_read_input_tokens: read },
    next: { entries },
  };
}
