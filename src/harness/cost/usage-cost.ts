/**
 * Dollars of one model call from its `usage`, column by column. Our requests mark their cache
 * breakpoints with the default 5-minute TTL, so every cache write is priced at the 5-minute rate
 * (the 1-hour column is in the table for when a request asks for `ttl: "1h"`).
 */
import type { Usage } from '../messages.ts';
import type { ModelPrice } from './prices.ts';

export type CallCost = {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  total: number;
};

const PER_TOKEN = 1 / 1_000_000;

export function costOfUsage(usage: Usage, price: ModelPrice): CallCost {
  const input = usage.input_tokens * price.input * PER_TOKEN;
  const cacheWrite = (usage.cache_creation_input_tokens ?? 0) * price.cacheWrite5m * PER_TOKEN;
  const cacheRead = (usage.cache_read_input_tokens ?? 0) * price.cacheRead * PER_TOKEN;
  const output = usage.output_tokens * price.output * PER_TOKEN;
  return { input, cacheWrite, cacheRead, output, total: input + cacheWrite + cacheRead + output };
}

/**
 * What the next call would cost at least, before it is made: its input tokens at the uncached
 * base rate (the budget check's estimate — a cache read would make it cheaper, output dearer;
 * output is unknown before the call, so it is not guessed).
 */
export function estimateNextCall(inputTokens: number, price: ModelPrice): number {
  return inputTokens * price.input * PER_TOKEN;
}

/** Dollars for people: 4 decimals under a dollar, 2 above (`$0.0042`, `$1.37`), as `/cost` shows them. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
