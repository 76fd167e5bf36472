/**
 * The harness's small helpers that code outside it uses too (POSIX paths, truncation). Light on
 * purpose: the sandbox thread, the file panel and the runner's start-up import it. The safe-regex
 * compiler (re2js, ~150 kB) is not here: it comes with the permission pipeline
 * (`permissions/index.ts`), so what only needs a path helper never loads RE2.
 */
export { basename, dirname, isInside, normalizePath, relativeTo, resolvePath } from './paths.ts';
export { truncateHeadTail } from './truncate.ts';
export { formatCount } from './count.ts';
export { byCodeUnits } from './order.ts';
