/**
 * `ContextSettings`: how the five compaction layers behave. Every layer can be switched off, and
 * every threshold is visible (the UI draws the auto-compact line on the context bar). Parse any
 * partial object with {@link parseContextSettings}; missing fields take the defaults below.
 */
import { z } from 'zod';

const fraction = z.number().gt(0).lte(1);

export const contextSettingsSchema = z.object({
  /** The model's context window, in tokens. */
  windowTokens: z.number().int().positive().default(200_000),
  /** Auto-compact fires when the projected request reaches this fraction of the context window (tokens). */
  autoCompactThreshold: fraction.default(0.85),
  budget: z
    .object({
      enabled: z.boolean().default(true),
      /** Cap for one tool result, in characters, when neither `perTool` nor the tool gives one. */
      defaultMaxChars: z.number().positive().default(30_000),
      /** Caps by tool name; they win over the tool's own `maxResultChars`. `0` exempts a tool. */
      perTool: z.record(z.string(), z.number().int().min(0)).default({}),
      /** All tool results of one user message together; the largest are referenced first. */
      perMessageChars: z.number().positive().default(100_000),
      /** Lines of the original shown in the reference. */
      previewLines: z.number().int().min(0).default(5),
    })
    .prefault({}),
  snip: z
    .object({
      /** Off by default: it drops whole exchanges (what the model saw is gone, not summarised). */
      enabled: z.boolean().default(false),
      /** Exchanges (an assistant message and the user message answering it) kept. */
      keepLastExchanges: z.number().int().min(1).default(40),
      /**
       * Snip only when this many exchanges beyond the window have piled up, then cut back to the
       * window in one go: one cache break per `slack` exchanges instead of one per turn.
       */
      slack: z.number().int().min(1).default(10),
    })
    .prefault({}),
  microcompact: z
    .object({
      enabled: z.boolean().default(true),
      /** Tool results kept verbatim, counted from the newest. */
      keepRecent: z.number().int().min(0).default(3),
      /** Results shorter than this are left alone: the reference would save almost nothing. */
      minChars: z.number().int().min(0).default(1_000),
      /** Queue trims and apply them only when the prompt cache is already broken (seed 002 §3.4). */
      cacheAware: z.boolean().default(true),
      /** The cache counts as healthy while this call's reads are ≥ this share of the previous call's. */
      healthyRatio: fraction.default(0.95),
      /** A smaller drop in cache reads than this (tokens) is noise, not a break. */
      minDropTokens: z.number().int().min(0).default(1_024),
      /** Cache lifetime: after this long without a call the cache is dead, so trimming is free. */
      cacheTtlMs: z.number().int().positive().default(5 * 60_000),
      /**
       * Under pressure alone (the cache is otherwise healthy), trim only when the tokens saved are at
       * least this share of the tokens the trim re-writes to the cache (everything after the first
       * trimmed block); otherwise collapse or auto-compact get their turn, which shrink far more per
       * break. 0 trims whenever there is pressure (the old rule).
       */
      pressureMinSavingShare: z.number().min(0).default(0.5),
      /**
       * With a healthy cache, trim anyway when the trim pays for itself within this many calls:
       * saved × 0.1 (a read) × calls ≥ re-written × 1.15 (a write instead of a read). Long sessions
       * then stay small instead of reading tens of thousands of dead tokens on every call. 0: never
       * break a healthy cache (the seed's rule alone).
       */
      paybackCalls: z.number().min(0).default(3),
    })
    .prefault({}),
  collapse: z
    .object({
      enabled: z.boolean().default(true),
      /** Collapse older exchanges when the projected request reaches this fraction of the context window (tokens). */
      threshold: fraction.default(0.7),
      /** Exchanges left uncollapsed, counted from the newest. */
      keepRecentExchanges: z.number().int().min(1).default(3),
      /**
       * Above this fraction of the window (and under `threshold`), collapse also when it pays for
       * itself within `paybackCalls` calls: tokens removed × 0.1 × calls ≥ tokens re-written × 1.15.
       * 1 switches the early path off.
       */
      economyFrom: fraction.default(0.35),
      paybackCalls: z.number().min(0).default(5),
      /** Summaries carry the findings of the collapsed outputs (values, locations, errors, decisions), not only the actions. */
      findings: z.boolean().default(true),
      /**
       * Who writes a new range's summary. `model`: a separate no-tools call to the run's model, when
       * the run has a real model client (live page runs, headless runs with a key; `collapse-model.ts`),
       * with the findings in its prompt; the deterministic summary when the call fails, is aborted or
       * its reply is empty or oversized. Scripted runs have no turn to spare and always use the
       * deterministic summary, so replays project identically. `deterministic`: never call a model.
       */
      summarizer: z.enum(['model', 'deterministic']).default('model'),
      /**
       * Ranges to collapse always, by message index in the stored history (a scenario can author
       * them). `from` must be an assistant message and `to` a user message.
       */
      ranges: z.array(z.object({ from: z.number().int().min(1), to: z.number().int().min(2) })).default([]),
    })
    .prefault({}),
  autoCompact: z
    .object({
      enabled: z.boolean().default(true),
      /** After this many failed summaries in a row, stop trying until one succeeds (a circuit breaker). */
      maxFailures: z.number().int().min(1).default(3),
    })
    .prefault({}),
  cache: z
    .object({
      /** Place `cache_control` breakpoints (tools, system, end of the conversation). */
      enabled: z.boolean().default(true),
      /** Also mark the previous turn's end, so a read still finds the last write after a big turn. */
      previousTurnBreakpoint: z.boolean().default(true),
      /** Mark the block before the oldest result microcompact could trim, so a trim re-reads the prefix before it. */
      anchorBreakpoint: z.boolean().default(true),
      /**
       * On the first request after a collapse or compaction rewrite, mark the end of the rewritten
       * region (the newest summary block): the next rewrite leaves everything up to it unchanged,
       * so that request reads it back instead of writing it again.
       */
      regionBreakpoint: z.boolean().default(true),
      /** Send tools sorted by name so their order never depends on how the list was assembled. */
      sortTools: z.boolean().default(true),
    })
    .prefault({}),
});

export type ContextSettings = z.infer<typeof contextSettingsSchema>;
export type ContextSettingsInput = z.input<typeof contextSettingsSchema>;

export const DEFAULT_CONTEXT_SETTINGS: ContextSettings = contextSettingsSchema.parse({});

/**
 * Successful parses by the input's JSON text. The loop resolves its settings on every turn, and a
 * parse of this schema (zod runs jitless here, see src/zod-jitless.ts) was the largest fixed cost
 * of a short turn (issue 23 §3). The input is plain data, so its JSON text decides the result; a
 * bad input is parsed every time (the same error). Bounded: a run uses one or two inputs.
 */
const parsedByText = new Map<string, ContextSettings>();
const PARSED_KEEP = 32;

/** A deep copy of parsed settings (plain objects, arrays, primitives), far cheaper than `structuredClone`. */
function plainCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map(plainCopy) as T;
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = plainCopy(x);
  return out as T;
}

function jsonKey(input: unknown): string | undefined {
  try {
    return JSON.stringify(input);
  } catch {
    return undefined; // a cycle, a BigInt: not settings; zod says why
  }
}

/** Fills defaults; throws a zod error naming the bad field. Each call gets its own object. */
export function parseContextSettings(input: ContextSettingsInput = {}): ContextSettings {
  const key = jsonKey(input);
  if (key === undefined) return contextSettingsSchema.parse(input);
  const hit = parsedByText.get(key);
  if (hit) return plainCopy(hit);
  const parsed = contextSettingsSchema.parse(input);
  if (parsedByText.size >= PARSED_KEEP) parsedByText.clear();
  parsedByText.set(key, plainCopy(parsed));
  return parsed;
}
