/**
 * The built-in documents the page has: the default scenario at once, the whole library once
 * `load()` has fetched its chunk. Both are migrated and validated by the build
 * (`scenarios/library/prebuilt.ts`: `virtual:first-builtin`, `virtual:builtin-library`), so the
 * page parses JSON instead of running zod on 49 documents. Started right after the first paint; everything that
 * lists built-ins (picker, course, lesson links) reads `docs` and fills in when it arrives.
 */
import { firstDoc } from 'virtual:first-builtin';
import type { ScenarioV1 } from '../../scenarios/schema-v1.ts';

class Builtins {
  docs = $state.raw<readonly ScenarioV1[]>([firstDoc]);
  /** The whole library is here (until then the picker says it is loading). */
  loaded = $state(false);
  /** Why the library could not be loaded, if it could not. */
  error = $state<string | null>(null);
  private pending: Promise<void> | null = null;

  /** Loads the library once; resolves when `docs` holds every built-in (or `error` says why not). */
  load(): Promise<void> {
    return (this.pending ??= import('virtual:builtin-library').then(
      (m) => {
        this.docs = m.builtinDocs;
        this.loaded = true;
      },
      (e: unknown) => {
        this.error = `The scenario library could not be loaded (${e instanceof Error ? e.message : String(e)}): reload the page to try again.`;
      },
    ));
  }
}

/** The page's one list of built-ins. */
export const builtins = new Builtins();
