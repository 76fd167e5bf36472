/** Shortcuts: Escape never stops a run (it closes drawers and dialogs); X stops. */
import { beforeAll, describe, expect, it } from 'vitest';
import { handleShortcut, type ShortcutActions } from '../../src/ui/keyboard.ts';

beforeAll(() => {
  // Node has no DOM; the handler only asks whether the target is an element that takes typing.
  const g = globalThis as Record<string, unknown>;
  g.HTMLElement ??= class {};
  g.Element ??= class {};
});

function press(key: string): string[] {
  const called: string[] = [];
  const actions: ShortcutActions = {
    step: () => called.push('step'),
    run: () => called.push('run'),
    pause: () => called.push('pause'),
    stop: () => called.push('stop'),
  };
  const e = { key, target: null, defaultPrevented: false, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, preventDefault() {} };
  handleShortcut(e as unknown as KeyboardEvent, actions);
  return called;
}

describe('keyboard shortcuts', () => {
  it('Escape does not stop the run', () => {
    expect(press('Escape')).toEqual([]);
  });
  it('X stops it, S steps, R runs, P pauses', () => {
    expect(press('x')).toEqual(['stop']);
    expect(press('s')).toEqual(['step']);
    expect(press('r')).toEqual(['run']);
    expect(press('p')).toEqual(['pause']);
  });
});
