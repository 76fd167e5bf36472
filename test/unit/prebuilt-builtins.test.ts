/**
 * The page's built-in scenarios are made at build time (`virtual:first-builtin`,
 * `virtual:builtin-library`: `src/scenarios/library/prebuilt.ts`), and a built-in's runnable
 * scenario is made without the v0 parse (`builtinScenarioOf`). What the page gets must be exactly
 * what it computed on load before, key order included (trust keys hash the document's JSON).
 */
import { describe, expect, it } from 'vitest';
import { firstDoc } from 'virtual:first-builtin';
import { firstBuiltinDoc } from '../../src/scenarios/library/first.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { toRunnableScenario } from '../../src/scenarios/migrate.ts';
import { prebuiltFirstModule, prebuiltLibraryModule } from '../../src/scenarios/library/prebuilt.ts';
import { builtinScenarioOf } from '../../src/ui/state/library.svelte.ts';

const evaluate = async <T>(code: string): Promise<T> => (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as T;

describe('the built-ins, prebuilt', () => {
  it('the build’s first module holds the migrated default document, byte for byte', async () => {
    const code = await prebuiltFirstModule(true);
    expect(code).not.toMatch(/^import /m);
    const built = await evaluate<{ firstDoc: unknown }>(code);
    expect(JSON.stringify(built.firstDoc)).toBe(JSON.stringify(firstBuiltinDoc));
  });

  it('the build’s library module holds every built-in document, byte for byte, in library order', async () => {
    const code = await prebuiltLibraryModule(true);
    expect(code).not.toMatch(/^import /m);
    const built = await evaluate<{ builtinDocs: unknown[] }>(code);
    expect(built.builtinDocs).toHaveLength(builtinDocs.length);
    expect(JSON.stringify(built.builtinDocs)).toBe(JSON.stringify(builtinDocs));
  });

  it('outside a build (vite dev, tests) the modules re-export the values computed at load time, once the document engines are in', async () => {
    expect(firstDoc).toBe(firstBuiltinDoc);
    const engines = /^await \(await import\(".*util\/index\.ts"\)\)\.loadDocumentEngines\(\);$/m;
    const library = await prebuiltLibraryModule(false);
    const first = await prebuiltFirstModule(false);
    expect(library).toMatch(engines);
    expect(library).toMatch(/^export const \{ builtinDocs \} = await import\(".*library\/index\.ts"\);$/m);
    expect(first).toMatch(engines);
    expect(first).toMatch(/^export const \{ firstBuiltinDoc: firstDoc \} = await import\(".*library\/first\.ts"\);$/m);
    // The engines first: the documents are validated as their module loads.
    expect(library.search(engines)).toBeLessThan(library.indexOf('library/index.ts'));
  });

  it('builtinScenarioOf: for every built-in, what toRunnableScenario gives, as a fresh deep copy', () => {
    for (const doc of builtinDocs) {
      const a = builtinScenarioOf(doc);
      expect(JSON.stringify(a), doc.id).toBe(JSON.stringify(toRunnableScenario(doc, 0)));
      expect(a).toStrictEqual(toRunnableScenario(doc, 0));
      // Nothing shared with the document (a run's edits never reach the library) or with another call.
      expect(a.settings).not.toBe(doc.settings);
      expect(a.model).not.toBe(doc.model);
      expect(builtinScenarioOf(doc).settings).not.toBe(a.settings);
    }
  });
});
