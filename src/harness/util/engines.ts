/**
 * The two heavy parsers documents need — RE2JS (linear-time regular expressions, ~230 kB rendered)
 * and yaml (~170 kB) — loaded on demand, not with the page's first screen (issue 23 §4).
 *
 * Their users stay synchronous (a schema refinement, a permission match, a settings parse, a hook
 * matcher), so every entry point that can reach one awaits {@link loadDocumentEngines} first:
 * `prepareRun`, the trust gate, a share link or an imported file, the page's panels, the runner.
 * Before that, using one throws {@link EngineNotLoadedError} — never a quiet "does not match" or
 * "invalid": a deny rule whose pattern could not be compiled must not let a call through, and a
 * good settings file must not be rejected because a chunk had not arrived (fail closed, loudly).
 *
 * Node loads both as plain packages; the page's bundler makes each a chunk of its own, fetched in
 * parallel.
 */
import type { RE2JS } from 're2js';

type Yaml = typeof import('yaml');

let re2: typeof RE2JS | null = null;
let yaml: Yaml | null = null;
let loading: Promise<void> | null = null;

/** A document engine was used before {@link loadDocumentEngines} settled: a missing `await` (a bug), never a verdict. */
export class EngineNotLoadedError extends Error {
  override name = 'EngineNotLoadedError';
  constructor(engine: 'RE2' | 'yaml') {
    super(`The ${engine === 'RE2' ? 'regular-expression engine (RE2)' : 'settings parser (yaml)'} has not loaded yet: await loadDocumentEngines() before parsing settings or matching rules.`);
  }
}

/**
 * Loads both engines (once; concurrent callers share the load). A failed load (a chunk the page
 * could not fetch) rejects with what happened and what to do. The next call tries again, but a
 * browser keeps a failed module import's failure for the page's life (Chromium does), hence "reload".
 */
export function loadDocumentEngines(): Promise<void> {
  if (re2 && yaml) return Promise.resolve();
  return (loading ??= Promise.all([import('re2js'), import('yaml')]).then(
    ([r, y]) => {
      re2 = r.RE2JS;
      yaml = y;
    },
    (e: unknown) => {
      loading = null;
      throw new Error(`Could not load the settings and rule parsers (${e instanceof Error ? e.message : String(e)}). Check the connection and reload the page.`);
    },
  ));
}

/** Whether {@link loadDocumentEngines} has settled successfully (synchronous users may run). */
export function documentEnginesLoaded(): boolean {
  return re2 !== null && yaml !== null;
}

/** RE2JS, or {@link EngineNotLoadedError}. */
export function re2Engine(): typeof RE2JS {
  if (!re2) throw new EngineNotLoadedError('RE2');
  return re2;
}

/** The yaml package, or {@link EngineNotLoadedError}. */
export function yamlEngine(): Yaml {
  if (!yaml) throw new EngineNotLoadedError('yaml');
  return yaml;
}
