/**
 * What a model call costs: a price table per model, in US dollars per million tokens, with the
 * columns of Anthropic's pricing page (base input, 5-minute cache writes, 1-hour cache writes,
 * cache hits & refreshes, output). The table carries its date and source so a reader can check
 * it; it is data, not code — the page's Settings and the runner's `--price-table FILE` replace it
 * (checked by `price-table.ts`).
 */
/** Dollars per million tokens, one column of the pricing page each. */
export type ModelPrice = {
  input: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
};

export type PriceTable = {
  /** When these prices were read from `source` (YYYY-MM-DD). */
  date: string;
  /** Where they come from (a URL, or who edited them). */
  source: string;
  /** Keyed by model id (`claude-sonnet-5-5`) or by family (`sonnet`), matched in that order. */
  models: Record<string, ModelPrice>;
  /** The row used for a model the table does not name (a scripted replay, a proxy's model). */
  fallback: string;
};

/** The multipliers of the pricing page's prompt-caching section, on the base input price. */
export const CACHE_MULTIPLIERS = { cacheWrite5m: 1.25, cacheWrite1h: 2, cacheRead: 0.1 } as const;

/** A row from its base input and output prices, with the standard cache multipliers. */
export function priceRow(input: number, output: number): ModelPrice {
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return { input, cacheWrite5m: r(input * CACHE_MULTIPLIERS.cacheWrite5m), cacheWrite1h: r(input * CACHE_MULTIPLIERS.cacheWrite1h), cacheRead: r(input * CACHE_MULTIPLIERS.cacheRead), output };
}

/**
 * The default table. The family rows are the pricing page's current Sonnet / Opus / Haiku rows
 * (Sonnet 4: $3 / $3.75 / $6 / $0.30 / $15 per MTok; Opus 4.5+: $5 / $25; Haiku 4.5: $1 / $5, cache
 * columns by the page's multipliers). The page we could read does not list the 5.5 ids this app
 * defaults to, so they take their family's row until someone edits the table — say so in the UI.
 */
export const DEFAULT_PRICE_TABLE: PriceTable = {
  date: '2026-12-03',
  source: 'https://docs.anthropic.com/en/docs/about-claude/pricing (model pricing; prompt caching multipliers)',
  models: {
    sonnet: priceRow(3, 15),
    opus: priceRow(5, 25),
    haiku: priceRow(1, 5),
  },
  fallback: 'sonnet',
};

export type PriceLookup = {
  price: ModelPrice;
  /** The row that matched: the model id itself, its family, or the table's fallback. */
  row: string;
  /** True when the model is not in the table and the fallback row prices it. */
  assumed: boolean;
};

const FAMILIES = ['opus', 'sonnet', 'haiku'] as const;

/** The price of `model`: its own row, else its family's (`claude-opus-5-5` → `opus`), else the fallback. */
export function priceFor(table: PriceTable, model: string): PriceLookup {
  const own = table.models[model];
  if (own) return { price: own, row: model, assumed: false };
  const family = FAMILIES.find((f) => model.toLowerCase().includes(f));
  if (family && table.models[family]) return { price: table.models[family], row: family, assumed: false };
  return { price: table.models[table.fallback] ?? priceRow(3, 15), row: table.fallback, assumed: true };
}
