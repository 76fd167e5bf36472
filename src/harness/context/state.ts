/**
 * `ContextState`: what the context pipeline remembers between model calls. The loop keeps it in
 * its `LoopState`; it is plain JSON so a session can be saved, replayed and forked.
 */

/** The original of a tool result the history now holds only as a reference. */
export type StoredResult = {
  toolUseId: string;
  toolName?: string;
  /** The original content, flattened to text. */
  content: string;
  isError?: boolean;
  /** Which layer replaced it. */
  by: 'budget' | 'microcompact';
};

/** A summary standing in for messages `from..to` (inclusive) of the stored history. */
export type CollapseEntry = {
  from: number;
  to: number;
  summary: string;
  /** A fingerprint of message `from`, so an entry whose messages moved is dropped, not misapplied. */
  anchor: string;
  /** Estimated tokens of the messages it stands for. */
  tokens: number;
};

/** One auto-compact (or reactive compact) that rewrote the stored history. */
export type CompactionBoundary = {
  /** The pipeline call (1-based) at which it happened. */
  call: number;
  trigger: 'auto' | 'reactive';
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
};

export type ContextState = {
  /** Originals of reduced tool results, by `tool_use_id` (read back with `read_tool_result`). */
  stored: Record<string, StoredResult>;
  /** The collapse side-store: summaries keyed by message ranges of the stored history. */
  collapses: CollapseEntry[];
  /** Microcompact trims waiting for the cache to break (tool_use ids). */
  pendingCacheEdits: string[];
  /** Cache reads reported by the last call and the call before it (null until known). */
  cacheReads: { last: number | null; previous: number | null };
  /** True when our own layers changed the prefix in the last call (its cache drop was ours). */
  lastCallBrokePrefix: boolean;
  /** Clock time of the last model call, for the cache TTL. */
  lastCallAt: number | null;
  /** A fingerprint of model + tools + system of the last request: a change breaks the cache anyway. */
  lastPrefixKey: string | null;
  compactions: CompactionBoundary[];
  /** Failed summaries in a row (the auto-compact circuit breaker). */
  autoCompactFailures: number;
  /** Pipeline calls so far. */
  calls: number;
};

export function emptyContextState(): ContextState {
  return {
    stored: {},
    collapses: [],
    pendingCacheEdits: [],
    cacheReads: { last: null, previous: null },
    lastCallBrokePrefix: false,
    lastCallAt: null,
    lastPrefixKey: null,
    compactions: [],
    autoCompactFailures: 0,
    calls: 0,
  };
}
