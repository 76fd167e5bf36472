/**
 * Trace events of the context window: what a request was assembled from and its token counts,
 * each compaction layer's run (and the history it rewrote), and prompt-cache numbers with what
 * broke the cached prefix. See `src/harness/context/`. Joined into `TraceEvent` in `../trace.ts`.
 */
import type { Message, Usage } from '../messages.ts';

/** Context assembly, compaction and cache events. */
export type ContextEventBody =
  | {
      /**
       * A compaction layer rewrote the stored history (budget reduction, snip, microcompact or
       * auto-compact). `messages` is the new truth; later `message.appended` indexes refer to it.
       */
      type: 'history.rewritten';
      messages: Message[];
      layers: string[];
      messagesBefore: number;
    }
  | {
      type: 'context.assembled';
      /** Estimated tokens per part (chars / 4 until the context layer refines it). */
      parts: { system: number; tools: number; messages: number; memory?: number };
      total: number;
      messageCount: number;
      /** Tokens of each projected message, in order (the context layer fills this). */
      perMessage?: number[];
      /** Tokens of each tool result in the projected request. */
      toolResults?: { toolUseId: string; name?: string; messageIndex: number; tokens: number }[];
      /** Tokens of the stored history before projection (live vs projected on the context bar). */
      truthTotal?: number;
      /** The context window and the auto-compact line on the bar. */
      window?: number;
      threshold?: { fraction: number; tokens: number };
      /** How the numbers were made, e.g. `chars/4`. */
      estimator?: string;
    }
  | {
      /**
       * The API's own count of the request's input tokens (`count_tokens`), beside our estimate.
       * Emitted when the run asks for exact counts and the model client can count.
       */
      type: 'context.counted';
      estimate: number;
      /** Null when the count failed; `error` says why. */
      actual: number | null;
      /** estimate − actual, and that as a share of actual. */
      difference?: number;
      relativeError?: number;
      error?: string;
    }
  | {
      /** One compaction layer ran before a model call (fired or not); see `src/harness/context/`. */
      type: 'compaction.layer';
      layer: CompactionLayerName;
      fired: boolean;
      /** True when the stored history changed (every layer but collapse may commit). */
      committed: boolean;
      tokensBefore: number;
      tokensAfter: number;
      /** Why it fired or did not, in words. */
      reason: string;
      changes: CompactionChange[];
      /**
       * The model calls that wrote summaries here: collapse's new ranges (priced as `collapse_summary`),
       * auto-compact's one summary of the whole history, `/compact` included (priced as `compact_summary`).
       */
      summaryCalls?: SummaryCall[];
    }
  | {
      /** Cache numbers of one model call and what broke the prefix, if anything. */
      type: 'cache.stats';
      read: number;
      creation: number;
      uncached: number;
      /** read ÷ (read + creation + uncached); 0 when there was no input. */
      hitRate: number;
      /** What differs from the previous request that broke the cached prefix; null when it only appended. */
      breakDiff: CacheBreak | null;
    };

/** The five context layers, cheap to expensive (seed 002 §3). */
export type CompactionLayerName = 'budget' | 'snip' | 'microcompact' | 'collapse' | 'auto_compact';

/** One thing a compaction layer removed or projected, with enough to show it in the UI. */
export type CompactionChange =
  | {
      kind: 'tool_result_ref';
      toolUseId: string;
      toolName?: string;
      messageIndex: number;
      chars: number;
      preview: string;
    }
  | { kind: 'messages_removed'; from: number; to: number; count: number; preview: string }
  | { kind: 'range_collapsed'; from: number; to: number; summary: string; isNew: boolean }
  | { kind: 'history_summarised'; removed: number; kept: number; summary: string }
  /** Microcompact's queued trims, held back because the prompt cache is healthy. */
  | { kind: 'trims_deferred'; toolUseIds: string[] };

/**
 * One no-tools model call that wrote the summary of a new collapse range (`context/collapse-model.ts`).
 * `fallback` says why its reply was not used (failed, aborted, empty, oversized): the deterministic
 * summary stands in. `usage` is what the API reported (null when nothing was).
 */
export type CollapseSummaryCall = { from: number; to: number; model: string; usage: Usage | null; fallback?: string; fit?: SummaryFitNote };
/**
 * Set on a summary call whose transcript had to be cut to fit — the model’s window (input +
 * `max_tokens`) or what is left of the run's dollar ceiling — or was not sent at all (`sent: false`,
 * `usage` null; the deterministic summary stands in). Estimates (chars/4), see `context/summary-fit.ts`.
 */
export type SummaryFitNote = {
  by: 'window' | 'budget';
  /** Input tokens the request could take; what the whole range would have taken; what was sent. */
  limitTokens: number;
  fullTokens: number;
  tokens: number;
  /** Messages of the range left out of the request, oldest first (the first, the task, stays). */
  leftOut: number;
  /** The reply's `max_tokens`, lowered to fit beside the input when it had to be. */
  maxTokens: number;
  sent: boolean;
};
/**
 * A summary call on a `compaction.layer` event: collapse's (above), or auto-compact's, where
 * `from`…`to` are the stored messages it summarised and `fallback` says why the compact failed
 * (nothing stands in: the history stays as it was) — except a request that did not fit and was not
 * sent (`fit.sent: false`), where the deterministic summary stands in.
 */
export type SummaryCall = CollapseSummaryCall;

/** What changed between two consecutive requests that broke the cached prefix. */
export type CacheBreak = {
  part: 'model' | 'tools' | 'system' | 'messages';
  /** A sentence for the UI, e.g. "message 12 changed (tool_result toolu_3 replaced by a reference)". */
  detail: string;
  /** For `messages`: the first message index whose content differs. */
  index?: number;
  before?: string;
  after?: string;
  /** Estimated tokens the two requests still share from the start. */
  sharedPrefixTokens: number;
};
