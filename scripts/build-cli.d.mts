/** Types of `build-cli.mjs` for the TypeScript that imports it (tests, benches). */
export const CLI_DIR: string;
export const CLI_BUNDLE: string;
/** True when the bundle is missing, or an input it was built from (or the build script) changed. */
export function cliBundleStale(root?: string): boolean;
/** `outdir`: another folder than dist-cli/ (its entry is `harness.mjs`, the launcher). */
export function buildCli(opts?: { quiet?: boolean; outdir?: string }): Promise<void>;
/** The source of the stand-in class the bundle gives just-bash for `Headers` (read at its first use). */
export const LAZY_HEADERS: string;
/** The esbuild plugin that gives just-bash's shared globals chunk {@link LAZY_HEADERS} (the unit tests' worker bundle uses it too). */
export const justBashLazyHeaders: import('esbuild').Plugin;
/** `code` with every non-ASCII character in a regular expression literal written as `\uXXXX` (what `runner.cjs` gets). */
export function asciiRegexps(code: string): string;
