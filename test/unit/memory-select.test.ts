import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/harness/ports.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import { IdbMemoryStore } from '../../src/storage/idb/memory-store.ts';
import {
  RECENCY_HALF_LIFE_MS,
  discoverClaudeMd,
  prepareMemory,
  rankMemories,
  selectMemories,
  stem,
  terms,
} from '../../src/harness/memory/index.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = 100 * DAY;
const mem = (id: string, content: string, ageDays: number, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({
  id,
  content,
  source: 'extracted',
  createdAt: NOW - ageDays * DAY,
  updatedAt: NOW - ageDays * DAY,
  ...extra,
});

describe('terms and stems', () => {
  it('lower-cases, drops stop words and meets word forms at one stem', () => {
    expect(terms('The Tests are testing what was TESTED')).toEqual(['test', 'test', 'test']);
    expect(['libraries', 'fixes', 'running', 'class', 'uses'].map(stem)).toEqual(['library', 'fix', 'run', 'class', 'use']);
  });
});

describe('ranking', () => {
  it('a relevant old memory beats a recent irrelevant one', () => {
    const entries = [
      mem('old', 'The test suite runs with vitest, never jest.', 60),
      mem('fresh', 'The user likes short commit messages.', 0),
    ];
    const ranked = rankMemories(entries, 'Please run the tests with vitest', NOW);
    expect(ranked.map((r) => r.entry.id)).toEqual(['old', 'fresh']);
    expect(ranked[1]!.keyword).toBe(0);
    expect(ranked[1]!.recency).toBeGreaterThan(ranked[0]!.recency);
  });

  it('between equally relevant memories the fresher one wins, by the documented half-life', () => {
    const ranked = rankMemories([mem('a', 'deploy with make ship', 7), mem('b', 'deploy with make push', 0)], 'how do I deploy', NOW);
    expect(ranked.map((r) => r.entry.id)).toEqual(['b', 'a']);
    expect(ranked[0]!.recency).toBeCloseTo(0.1, 3);
    expect(ranked[1]!.recency).toBeCloseTo(0.05, 3);
    expect(RECENCY_HALF_LIFE_MS).toBe(7 * DAY);
  });

  it('rare shared words count more than common ones (idf)', () => {
    const entries = [
      mem('common', 'project uses project style', 1),
      mem('rare', 'project database is postgres', 1),
      mem('x', 'project readme', 1),
    ];
    const ranked = rankMemories(entries, 'project postgres', NOW);
    expect(ranked[0]!.entry.id).toBe('rare');
  });

  it('tags count as words of the memory', () => {
    const ranked = rankMemories([mem('t', 'use two spaces', 1, { tags: ['indentation'] })], 'fix the indentation', NOW);
    expect(ranked[0]!.keyword).toBeGreaterThan(0);
  });
});

describe('selection and the memory text', () => {
  it('keeps under the token cap, skips what does not fit, and says why each was left out', () => {
    const long = `database ${'very long words '.repeat(40)}`;
    const entries = [
      mem('long', long, 0),
      mem('short', 'database is sqlite', 1),
      mem('short2', 'database file lives in data/', 2),
      mem('off', 'the cat is called Tom', 0),
    ];
    const cap = 20;
    const { text, event } = selectMemories({ entries, prompt: 'where is the database?', now: NOW, tokenCap: cap });
    expect(event.chosen.map((c) => c.id)).toEqual(['short', 'short2']);
    expect(event.chosen.reduce((s, c) => s + c.tokens, 0)).toBeLessThanOrEqual(cap);
    expect(Object.fromEntries(event.left.map((l) => [l.id, l.reason]))).toEqual({ long: 'over_cap', off: 'no_match' });
    expect(event.left.find((l) => l.id === 'long')!.content.length).toBeLessThanOrEqual(120);
    expect(text).toContain('Memories:\n- database is sqlite\n- database file lives in data/');
    expect(text).not.toContain('Tom');
    expect(event.terms).toEqual(['database']);
    expect(event.cap).toBe(cap);
  });

  it('limits the number of memories', () => {
    const entries = Array.from({ length: 5 }, (_, i) => mem(`m${i}`, `lint rule ${i}`, i));
    const { event } = selectMemories({ entries, prompt: 'lint', now: NOW, maxEntries: 2 });
    expect(event.chosen).toHaveLength(2);
    expect(event.left.filter((l) => l.reason === 'max_entries')).toHaveLength(3);
  });

  it('puts the CLAUDE.md files first, then the memories; nothing at all gives no text', async () => {
    const sb = await createJustBashSandbox({ files: { 'CLAUDE.md': 'Always use pnpm.' } });
    const claudeMd = await discoverClaudeMd(sb.fs, '/home/project');
    const { text, event } = selectMemories({ entries: [mem('a', 'pnpm workspaces are in packages/', 1)], prompt: 'pnpm', now: NOW, claudeMd });
    expect(text.indexOf('Contents of /home/project/CLAUDE.md')).toBeGreaterThan(0);
    expect(text.indexOf('Contents of /home/project/CLAUDE.md')).toBeLessThan(text.indexOf('Memories:'));
    expect(text.startsWith('<system-reminder>')).toBe(true);
    expect(event.files).toEqual([{ path: '/home/project/CLAUDE.md', tokens: 4 }]);
    expect(event.tokens).toBe(Math.ceil(text.length / 4));
    expect(selectMemories({ entries: [], prompt: 'x', now: NOW }).text).toBe('');
  });

  it('prepareMemory reads the sandbox and the store; a failing store is a problem, not a crash', async () => {
    const sb = await createJustBashSandbox({ files: { 'CLAUDE.md': 'Rules. @missing.md' } });
    const store = new InMemoryMemoryStore([mem('a', 'The build command is make all', 1)]);
    const ok = await prepareMemory({ fs: sb.fs, cwd: sb.workdir, store, prompt: 'run the build', now: NOW });
    expect(ok.event.chosen.map((c) => c.id)).toEqual(['a']);
    expect(ok.event.problems.map((p) => p.kind)).toEqual(['missing']);

    // A real IndexedDB store that cannot open: the database was written by a newer build.
    (await openDB('from-the-future', 1000)).close();
    const broken = new IdbMemoryStore({ name: 'from-the-future' });
    const r = await prepareMemory({ fs: sb.fs, cwd: sb.workdir, store: broken, prompt: 'run the build', now: NOW });
    expect(r.text).toContain('Rules.');
    expect(r.event.problems.map((p) => p.kind)).toEqual(['missing', 'store']);
    expect(r.event.problems[1]!.message).toMatch(/memories were not read: .*newer version/);
  });
});
