/** Types of `cli-bundle-state.mjs` for the TypeScript that imports it (tests). */
export const ROOT: string;
export const CLI_DIR: string;
export const CLI_BUNDLE: string;
export const INPUTS_FILE: string;
/** After a build: records its inputs (`metafileInputs`: esbuild's metafile keys) and their stats in `outdir/inputs.json`. */
export function writeInputsManifest(outdir: string, metafileInputs: string[], started: number, root?: string): void;
/** True when the bundle is missing, or an input it was built from (or the build script) changed. */
export function cliBundleStale(root?: string): boolean;
