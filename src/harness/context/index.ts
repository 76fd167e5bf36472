/**
 * The context pipeline: token accounting, the five compaction layers, prompt-cache placement, the
 * cache-break diff and a cache simulator. See README.md for how the loop drives it.
 */
export { prepareContext, reactiveCompact, recordCacheUsage } from './pipeline.ts';
export type { PrepareContextArgs, PreparedContext, CompactionInfo } from './pipeline.ts';
export { contextSettingsSchema, parseContextSettings, DEFAULT_CONTEXT_SETTINGS } from './settings.ts';
export type { ContextSettings, ContextSettingsInput } from './settings.ts';
export { emptyContextState } from './state.ts';
export type { ContextState, StoredResult, CollapseEntry, CompactionBoundary } from './state.ts';
export { placeBreakpoints, cacheStats, overallHitRate, cacheBreakDiff, countBreakpoints, MAX_BREAKPOINTS } from './cache.ts';
export type { CacheStats, RequestParts } from './cache.ts';
export { simulateCacheUsage, emptyCacheSim } from './cache-sim.ts';
export type { CacheSimState, CacheSimOptions } from './cache-sim.ts';
export { commonPrefixTokens, linearize } from './prefix.ts';
export type { PrefixRequest } from './prefix.ts';
export { compareEstimate, actualInputTokens, requestTokens, messageTokens, estimateTextTokens, CHARS_PER_TOKEN, ESTIMATOR_NAME, IMAGE_TOKENS_ESTIMATE } from './tokens.ts';
export type { EstimateComparison, PartTokens } from './tokens.ts';
export { buildCompactRequest, compactInstructions, renderTranscript, COMPACT_SECTIONS, COMPACT_SYSTEM } from './compact-prompt.ts';
export { modelSummarizer, deterministicSummarizer } from './summarizer.ts';
export type { Summarize, SummaryResult, SummarizeInfo } from './summarizer.ts';
export { modelCollapseSummarizer } from './collapse-model.ts';
export type { CollapseSummarize, CollapseSummaryResult } from './collapse-model.ts';
export { buildCollapseRequest } from './collapse-prompt.ts';
export { readToolResultTool, storedResultsOf } from './read-tool-result-tool.ts';
export type { StoredResultsReader } from './read-tool-result-tool.ts';
