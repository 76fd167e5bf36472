/**
 * The scenarios the picker offers: the built-ins, plus any opened from a share link or imported
 * from a file (those are marked, and go through the trust gate when loaded). A link or file that
 * cannot be read leaves `loadError` set and changes nothing else.
 */
import { toRunnableScenarioValidated } from '../../scenarios/shape.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import type { ScenarioV1 } from '../../scenarios/schema-v1.ts';
import type { ScenarioOrigin } from './trust-gate.svelte.ts';
import { documents, documentsLoaded } from './documents.ts';

/**
 * What a built-in runs (`toRunnableScenario(v1, 0)`, a fresh deep copy each call), without the v0
 * parse: the built-ins are validated by the build (`scenarios/library/prebuilt.ts`) or by
 * `library/index.ts` on load, and for every one of them that parse changes nothing
 * (`prebuilt-builtins.test.ts`). On the page it was the first zod parse, paid before Step could be
 * pressed, and again for each of the 49 built-ins when the library arrived.
 */
export function builtinScenarioOf(v1: ScenarioV1): Scenario {
  return toRunnableScenarioValidated(v1, 0);
}

/**
 * A built-in's entry. Its runnable copy is made the first time something asks for it (the one
 * picked, the one run), not for all 49 the moment the library arrives: those copies were ~23 ms of
 * a cold first screen's main thread. The picker reads `v1`, which is the same id and title.
 */
function builtinEntry(v1: ScenarioV1): LibraryEntry {
  let scenario: Scenario | undefined;
  return {
    origin: 'builtin',
    v1,
    get scenario() {
      return (scenario ??= builtinScenarioOf(v1));
    },
  };
}

/**
 * `scenario` is what runs (its first prompt, in the v0 shape `prepareRun` takes); `v1` is the
 * whole document — every prompt, the recorded model, the lesson (notes, questions, breakpoints).
 */
export type LibraryEntry = { scenario: Scenario; origin: ScenarioOrigin; v1: ScenarioV1 };

/** Largest scenario file accepted for import. */
const MAX_IMPORT_BYTES = 2 * 1024 * 1024;

export class ScenarioLibrary {
  entries = $state.raw<LibraryEntry[]>([]);
  loadError = $state<string | null>(null);

  /** The built-ins as whole documents (lessons and every prompt included). */
  constructor(builtins: readonly ScenarioV1[]) {
    this.entries = builtins.map(builtinEntry);
  }

  /**
   * The whole library has loaded (`builtins.svelte.ts`): its built-ins replace the ones given so far,
   * in library order; outside scenarios stay after them (an outside one that took a built-in's id keeps it:
   * `add` already renamed it if the built-in was known, and the built-in wins the picker either way).
   */
  setBuiltins(builtins: readonly ScenarioV1[]): void {
    const outside = this.entries.filter((e) => e.origin !== 'builtin' && !builtins.some((d) => d.id === e.v1.id));
    this.entries = [...builtins.map(builtinEntry), ...outside];
  }

  find(id: string): LibraryEntry | undefined {
    return this.entries.find((e) => e.v1.id === id);
  }

  /**
   * Adds an outside scenario. It never takes a built-in's id (a link cannot pose as a built-in);
   * it replaces an earlier outside one of the same id.
   */
  add(doc: Scenario | ScenarioV1, origin: Exclude<ScenarioOrigin, 'builtin'>): LibraryEntry {
    const { fromV0, toRunnableScenario } = documents();
    const base = doc.version === 1 ? doc : fromV0(doc);
    let id = base.id;
    const taken = (candidate: string) => this.entries.some((e) => e.v1.id === candidate && e.origin === 'builtin');
    for (let n = 1; taken(id); n++) id = `${base.id}-${origin}${n > 1 ? `-${n}` : ''}`;
    const v1 = id === base.id ? base : { ...base, id };
    const entry: LibraryEntry = { scenario: toRunnableScenario(v1, 0), origin, v1 };
    this.entries = [...this.entries.filter((e) => e.origin === 'builtin' || e.v1.id !== id), entry];
    return entry;
  }

  /** Sets `loadError` (what could not be opened, and what to do); returns null for the caller to return. */
  failed(message: string): null {
    this.loadError = message;
    return null;
  }

  /**
   * `location.hash` → the scenario of a `#s=` link, or null (no link, or an error in `loadError`).
   * Await `loadDocuments()` first (`state/documents.ts`): the link is validated with the scenario
   * schemas, its tier patterns with RE2.
   */
  fromHash(hash: string): LibraryEntry | null {
    if (!hash.startsWith('#s=')) return null;
    if (!documentsLoaded()) return this.failed('This share link could not be opened: the page could not load its settings and rule parsers. Check the connection and reload the page.');
    const r = documents().decodeScenarioLinkV1(hash);
    if (!r.ok) {
      this.loadError = `This share link could not be opened. ${r.error}`;
      return null;
    }
    this.loadError = null;
    return this.add(r.scenario, 'link');
  }

  /** The text of an imported file → its scenario, or null (error in `loadError`). Await `loadDocuments()` first, as for {@link fromHash}. */
  fromFileText(text: string, fileName: string): LibraryEntry | null {
    if (!documentsLoaded()) return this.failed(`${fileName} could not be read: the page could not load its settings and rule parsers. Check the connection and try again.`);
    if (text.length > MAX_IMPORT_BYTES) {
      this.loadError = `${fileName} is too large for a scenario (over 2 MB).`;
      return null;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      this.loadError = `${fileName} is not JSON (${e instanceof Error ? e.message : String(e)}). Import a scenario .json file.`;
      return null;
    }
    const { nestingError, migrateScenario } = documents();
    const deep = nestingError(json, fileName);
    if (deep) {
      this.loadError = deep;
      return null;
    }
    const r = migrateScenario(json);
    if (!r.ok) {
      this.loadError = `${fileName} is not a valid scenario: ${r.errors.slice(0, 5).join('; ')}${r.errors.length > 5 ? ` (and ${r.errors.length - 5} more)` : ''}.`;
      return null;
    }
    this.loadError = null;
    return this.add(r.scenario, 'import');
  }
}
