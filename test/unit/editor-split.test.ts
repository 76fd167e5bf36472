import { describe, expect, it } from 'vitest';
import { SPLIT_DEFAULT, SPLIT_MAX, SPLIT_MIN, clampSplit, parseSplit, splitAfterKey, splitAtPointer } from '../../src/ui/spaces/editor-split.ts';

describe('the Build split between the editor and the terminal', () => {
  it('keeps both sides on screen: clamped to 30–80 % for the editor', () => {
    expect(clampSplit(5)).toBe(SPLIT_MIN);
    expect(clampSplit(99)).toBe(SPLIT_MAX);
    expect(clampSplit(55.4)).toBe(55);
    expect(clampSplit(NaN)).toBe(SPLIT_DEFAULT);
  });

  it('reads what was stored, and anything unreadable as the default', () => {
    expect(parseSplit('70')).toBe(70);
    expect(parseSplit('900')).toBe(SPLIT_MAX);
    expect(parseSplit('wide')).toBe(SPLIT_DEFAULT);
    expect(parseSplit(null)).toBe(SPLIT_DEFAULT);
  });

  it('moves by 5 % with the arrows, to the ends with Home / End, and ignores other keys', () => {
    expect(splitAfterKey(60, 'ArrowUp')).toBe(55);
    expect(splitAfterKey(60, 'ArrowDown')).toBe(65);
    expect(splitAfterKey(SPLIT_MIN, 'ArrowUp')).toBe(SPLIT_MIN);
    expect(splitAfterKey(60, 'Home')).toBe(SPLIT_MIN);
    expect(splitAfterKey(60, 'End')).toBe(SPLIT_MAX);
    expect(splitAfterKey(60, 'a')).toBeNull();
  });

  it('follows the pointer within the column', () => {
    expect(splitAtPointer(500, 100, 800)).toBe(50);
    expect(splitAtPointer(2000, 100, 800)).toBe(SPLIT_MAX);
    expect(splitAtPointer(500, 100, 0)).toBe(SPLIT_DEFAULT);
  });
});
