/** Types of `build-cli.mjs` for the TypeScript that imports it (tests, benches). */
export const CLI_DIR: string;
export const CLI_BUNDLE: string;
/** True when the bundle is missing or older than `src/` or the build script. */
export function cliBundleStale(): boolean;
/** `outdir`: another folder than dist-cli/ (its entry is `harness.mjs`). */
export function buildCli(opts?: { quiet?: boolean; outdir?: string }): Promise<void>;
