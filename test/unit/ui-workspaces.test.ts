import { beforeAll, describe, expect, it } from 'vitest';
import { SPACES, SPACE_TABS, initialSpace, parseSpace, spaceFromSearch, spaceOfKey, spaceOfTab, withSpace } from '../../src/ui/spaces/spaces.ts';
import { handleShortcut } from '../../src/ui/keyboard.ts';

/** Every side-panel tab of src/ui/SidePanel.svelte, read from its source (no DOM needed). */
import sidePanel from '../../src/ui/SidePanel.svelte?raw';

beforeAll(() => {
  // Node has no DOM; the shortcut handler only asks whether the target is an element that takes typing.
  const g = globalThis as Record<string, unknown>;
  g.HTMLElement ??= class {};
  g.Element ??= class {};
});

const panelTabs = [...sidePanel.matchAll(/\{ id: '([a-z]+)', label:/g)].map((m) => m[1]);

describe('workspaces', () => {
  it('hold every side-panel tab exactly once, at most eight to a workspace', () => {
    const all = SPACES.flatMap((s) => SPACE_TABS[s] as readonly string[]);
    expect(panelTabs.length).toBeGreaterThan(10);
    expect([...all].sort()).toEqual([...panelTabs].sort());
    expect(new Set(all).size).toBe(all.length);
    for (const s of SPACES) expect(SPACE_TABS[s].length).toBeLessThanOrEqual(8);
  });

  it('find the workspace of a tab', () => {
    expect(spaceOfTab('context')).toBe('inspect');
    expect(spaceOfTab('workbench')).toBe('build');
    expect(spaceOfTab('team')).toBe('team');
    expect(spaceOfTab('lesson')).toBe('learn');
  });

  it('parse ?ws= from a link, ignoring case and unknown names', () => {
    expect(spaceFromSearch('?ws=build')).toBe('build');
    expect(spaceFromSearch('?x=1&ws=Team')).toBe('team');
    expect(spaceFromSearch('?ws=kitchen')).toBeNull();
    expect(spaceFromSearch('')).toBeNull();
    expect(parseSpace(null)).toBeNull();
  });

  it('open with the link first, then the remembered workspace, then Learn', () => {
    expect(initialSpace('?ws=inspect', 'build')).toBe('inspect');
    expect(initialSpace('?ws=nope', 'build')).toBe('build');
    expect(initialSpace('', 'garbage')).toBe('learn');
    expect(initialSpace('', null)).toBe('learn');
  });

  it('set ?ws= on a link, keeping its path, parameters and hash', () => {
    expect(withSpace('http://h/app/?a=1#s=xyz', 'build')).toBe('http://h/app/?a=1&ws=build#s=xyz');
    expect(withSpace('http://h/?ws=learn', 'team')).toBe('http://h/?ws=team');
  });

  it('map keys 1–4 to Learn, Inspect, Build, Team', () => {
    expect(['1', '2', '3', '4', '5', 'a'].map(spaceOfKey)).toEqual(['learn', 'inspect', 'build', 'team', null, null]);
  });

  it('switch by key through the shortcut handler, not with a modifier held', () => {
    const got: string[] = [];
    const actions = { step: () => {}, run: () => {}, pause: () => {}, stop: () => {}, workspace: (s: string) => void got.push(s) };
    const press = (key: string, mods: Partial<KeyboardEvent> = {}) =>
      handleShortcut({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, defaultPrevented: false, target: null, preventDefault() {}, ...mods } as KeyboardEvent, actions);
    press('3');
    press('2', { ctrlKey: true });
    press('4');
    expect(got).toEqual(['build', 'team']);
  });
});
