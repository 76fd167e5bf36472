/**
 * Reading a price table from JSON (the runner's `--price-table` file, the page's editor and its
 * saved copy), with its schema (zod). Apart from `prices.ts` so the page's first screen prices
 * calls with the built-in or saved table without loading zod (`light.ts`).
 */
import { z } from 'zod';
import type { PriceTable } from './prices.ts';

const money = z.number().finite().nonnegative();
const priceSchema = z.strictObject({ input: money, cacheWrite5m: money, cacheWrite1h: money, cacheRead: money, output: money });
const tableSchema = z.strictObject({
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD'),
  source: z.string().min(1),
  models: z.record(z.string().min(1), priceSchema).refine((m) => Object.keys(m).length > 0, 'at least one model'),
  fallback: z.string().min(1),
});

/**
 * A price table from JSON (the runner's `--price-table` file, the page's editor). Strict: an
 * unknown key or a negative price is an error naming its path, never silently ignored.
 */
export function parsePriceTable(json: unknown): { ok: true; table: PriceTable } | { ok: false; problem: string } {
  const r = tableSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    return { ok: false, problem: `${i.path.join('.') || '(top level)'}: ${i.message}` };
  }
  if (!r.data.models[r.data.fallback]) return { ok: false, problem: `fallback: "${r.data.fallback}" is not one of the models (${Object.keys(r.data.models).join(', ')})` };
  return { ok: true, table: r.data };
}
