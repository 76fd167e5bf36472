import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '../../src/harness/ports.ts';
import { exportFileName, fmtAgo, fmtBytes, forkTitle, sessionTitle, sessionTree } from '../../src/ui/sessions/session-tree.ts';

const info = (id: string, parentId?: string, forkedAt?: number): SessionInfo => ({
  id,
  title: id,
  createdAt: 0,
  updatedAt: 0,
  eventCount: 0,
  bytes: 0,
  ...(parentId ? { parentId, forkedAt: forkedAt ?? 1 } : {}),
});

const shape = (list: SessionInfo[]) => sessionTree(list).map((r) => `${'  '.repeat(r.depth)}${r.info.id}:${r.children}`);

describe('sessionTree', () => {
  it('puts forks under their parent, depth first, keeping the store order among siblings', () => {
    // Store order: newest first.
    const list = [info('c2', 'a'), info('b'), info('d', 'c1'), info('c1', 'a'), info('a')];
    expect(shape(list)).toEqual(['b:0', 'a:2', '  c2:0', '  c1:1', '    d:0']);
  });

  it('lists a fork whose parent was deleted as a root, and never loses a session to a cycle', () => {
    const list = [info('orphan', 'gone'), info('x', 'y'), info('y', 'x'), info('self', 'self')];
    const rows = sessionTree(list);
    expect(rows.map((r) => r.info.id).sort()).toEqual(['orphan', 'self', 'x', 'y']);
    expect(rows.find((r) => r.info.id === 'orphan')?.depth).toBe(0);
    expect(rows.find((r) => r.info.id === 'self')?.depth).toBe(0);
    expect(new Set(rows.map((r) => r.info.id)).size).toBe(rows.length);
  });

  it('is empty for no sessions', () => {
    expect(sessionTree([])).toEqual([]);
  });
});

describe('titles and formats', () => {
  it('titles a session by scenario and first prompt, on one clipped line', () => {
    expect(sessionTitle('Fix a bug', 'test.sh fails.\nFind it.')).toBe('Fix a bug — test.sh fails. Find it.');
    expect(sessionTitle('S', 'x'.repeat(200)).length).toBeLessThan(70);
    expect(sessionTitle('S', '   ')).toBe('S');
  });

  it('marks a fork with its position, without stacking marks on a fork of a fork', () => {
    expect(forkTitle('Fix a bug — go', 12)).toBe('Fix a bug — go (fork @ 12)');
    expect(forkTitle('Fix a bug — go (fork @ 12)', 7)).toBe('Fix a bug — go (fork @ 7)');
  });

  it('formats bytes and ages for people', () => {
    expect(fmtBytes(812)).toBe('812 B');
    expect(fmtBytes(14_540)).toBe('14 KB');
    expect(fmtBytes(3 * 1024 * 1024 + 100)).toBe('3.0 MB');
    expect(fmtBytes(-1)).toBe('?');
    const now = Date.UTC(2026, 10, 29, 12);
    expect(fmtAgo(now - 10_000, now)).toBe('just now');
    expect(fmtAgo(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(fmtAgo(now - 3 * 3_600_000, now)).toBe('3 h ago');
    expect(fmtAgo(now - 3 * 86_400_000, now)).toBe('2026-11-26');
  });

  it('names an export file safely', () => {
    expect(exportFileName('Fix a bug — test.sh fails', 'session_01ABCDEFGH')).toBe('fix-a-bug-test-sh-fails-session_.jsonl');
    expect(exportFileName('¿¿¿', 'abc')).toBe('session-abc.jsonl');
  });
});
