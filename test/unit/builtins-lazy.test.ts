/**
 * The first screen carries the default scenario only (`library/first.ts`); the rest of the library
 * loads on demand (`ui/state/builtins.svelte.ts`) and fills the picker, keeping outside scenarios.
 */
import { describe, expect, it } from 'vitest';
import { firstBuiltinDoc } from '../../src/scenarios/library/first.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { builtins } from '../../src/ui/state/builtins.svelte.ts';
import { builtinScenarioOf, ScenarioLibrary } from '../../src/ui/state/library.svelte.ts';
import { courseLessons } from '../../src/scenarios/course-lessons.ts';
import { courseLessons as allCourseLessons } from '../../src/scenarios/course.ts';

describe('the built-ins load after the first screen', () => {
  it('the default scenario is the library’s first, validated on its own', () => {
    expect(builtinDocs[0]).toBe(firstBuiltinDoc);
  });

  it('before load() only the default scenario is known; after it, every built-in in library order', async () => {
    expect(builtins.loaded).toBe(false);
    expect(builtins.docs).toEqual([firstBuiltinDoc]);
    await builtins.load();
    expect(builtins.loaded).toBe(true);
    expect(builtins.error).toBeNull();
    expect(builtins.docs.map((d) => d.id)).toEqual(builtinDocs.map((d) => d.id));
    expect(courseLessons(builtins.docs).map((l) => l.id)).toEqual(allCourseLessons().map((l) => l.id));
  });

  it('setBuiltins fills the picker and keeps a scenario opened from a link after the built-ins', () => {
    const library = new ScenarioLibrary([firstBuiltinDoc]);
    const outside = library.add({ ...builtinDocs[1]!, id: 'from-a-link', title: 'From a link' }, 'link');
    library.setBuiltins(builtinDocs);
    expect(library.entries.map((e) => e.scenario.id)).toEqual([...builtinDocs.map((d) => d.id), outside.scenario.id]);
    expect(library.find('from-a-link')?.origin).toBe('link');
  });

  it('a built-in entry is its runnable scenario, the same object each time it is asked for, and a link still cannot take its id', () => {
    const library = new ScenarioLibrary(builtinDocs);
    const entry = library.find(builtinDocs[2]!.id)!;
    expect(entry.origin).toBe('builtin');
    expect(entry.scenario).toEqual(builtinScenarioOf(builtinDocs[2]!));
    // Made once: a run started from it and the picker see one object, as when it was made eagerly.
    expect(library.find(builtinDocs[2]!.id)!.scenario).toBe(entry.scenario);
    expect(library.entries.map((e) => e.v1.id)).toEqual(builtinDocs.map((d) => d.id));
    const posing = library.add({ ...builtinDocs[2]! }, 'link');
    expect(posing.scenario.id).toBe(`${builtinDocs[2]!.id}-link`);
    expect(library.find(builtinDocs[2]!.id)!.origin).toBe('builtin');
  });
});
