/**
 * The harness's small helpers that code outside it uses too (POSIX paths, truncation). Light on
 * purpose: the sandbox thread, the file panel and the runner's start-up import it. The safe-regex
 * compiler is not here: it comes with the permission pipeline (`permissions/index.ts`). RE2JS and
 * yaml themselves load on demand: `loadDocumentEngines` (`engines.ts`) is what every entry point
 * awaits before settings, tier patterns or hook matchers are read.
 */
export { basename, dirname, isInside, normalizePath, relativeTo, resolvePath } from './paths.ts';
export { truncateHeadTail } from './truncate.ts';
export { formatCount } from './count.ts';
export { byCodeUnits } from './order.ts';
export { documentEnginesLoaded, EngineNotLoadedError, loadDocumentEngines } from './engines.ts';
