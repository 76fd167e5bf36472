/** The harness's small helpers that code outside it uses too (POSIX paths, truncation, safe regexes). */
export { basename, dirname, isInside, normalizePath, relativeTo, resolvePath } from './paths.ts';
export { compileSafeRegex } from './safe-regex.ts';
export { truncateHeadTail } from './truncate.ts';
