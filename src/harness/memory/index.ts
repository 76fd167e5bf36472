/** Long-term memory: CLAUDE.md discovery, ranking and injection, extraction. See README.md. */
export { discoverClaudeMd, directoriesDownTo, MAX_IMPORT_HOPS, MEMORY_FILE_NAME } from './claude-md.ts';
export type { ClaudeMdOptions, ClaudeMdResult, MemoryFsReader } from './claude-md.ts';
export { findImports, resolveImport } from './imports.ts';
export { recordReader } from './record-reader.ts';
export { MEMORY_SOURCES, normalizeFact, parseEntry, byAge } from './entry.ts';
export { rankMemories, terms, stem, RECENCY_WEIGHT, RECENCY_HALF_LIFE_MS } from './rank.ts';
export type { Scored } from './rank.ts';
export { selectMemories, DEFAULT_MEMORY_TOKEN_CAP, DEFAULT_MAX_MEMORIES } from './select.ts';
export type { MemoryInjectedEvent, MemorySelection, SelectOptions } from './select.ts';
export { prepareMemory } from './prepare.ts';
export type { PrepareMemoryOptions } from './prepare.ts';
export { extractByRules, extractByModel, lastExchange } from './extract.ts';
export type { Extraction, MemoryExtractedEvent } from './extract.ts';
export { buildExtractRequest, parseFacts, EXTRACT_SYSTEM } from './extract-prompt.ts';
export { rememberExchange } from './remember.ts';
export { parseOrigin, originLabel, injectableInto, taggingStore, refusingStore } from './origin.ts';
export type { RememberOptions } from './remember.ts';
export { quickAddNote, addQuickMemory } from './quick-add.ts';
