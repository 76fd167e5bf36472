/**
 * The built-in documents the page has: the default scenario at once (`library/first.ts`), the whole
 * library once `load()` has fetched its chunk. Started right after the first paint; everything that
 * lists built-ins (picker, course, lesson links) reads `docs` and fills in when it arrives.
 */
import { firstBuiltinDoc } from '../../scenarios/library/first.ts';
import type { ScenarioV1 } from '../../scenarios/schema-v1.ts';

class Builtins {
  docs = $state.raw<readonly ScenarioV1[]>([firstBuiltinDoc]);
  /** The whole library is here (until then the picker says it is loading). */
  loaded = $state(false);
  /** Why the library could not be loaded, if it could not. */
  error = $state<string | null>(null);
  private pending: Promise<void> | null = null;

  /** Loads the library once; resolves when `docs` holds every built-in (or `error` says why not). */
  load(): Promise<void> {
    return (this.pending ??= import('../../scenarios/library/index.ts').then(
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
