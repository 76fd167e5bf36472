/**
 * The skills panel and the task board are derived from the events shown: the board at any step is
 * the graph of the latest task event up to it, and the skills view pairs descriptions with loads.
 */
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/harness/index.ts';
import { agents } from '../../src/harness/index.ts';
import { deriveBoard, deriveSkills } from '../../src/ui/agents/derive.ts';
import { summarizeAgentEvent } from '../../src/ui/agents/summary.ts';

let seq = 0;
const ev = (body: Record<string, unknown>) => ({ seq: ++seq, ts: 0, agentId: 'main', turn: 1, ...body }) as unknown as TraceEvent;
const task = (id: string, status: agents.TaskStatus, blockedBy: string[] = []): agents.Task => ({ id, subject: `t${id}`, description: '', status, blockedBy, createdAt: 0, updatedAt: 0 });

describe('deriveBoard', () => {
  it('is the latest graph up to the cursor, with blockers and what can start', () => {
    const t1 = task('1', 'pending');
    const t2 = task('2', 'pending', ['1']);
    const events = [
      ev({ type: 'task.created', task: t1, tasks: [t1] }),
      ev({ type: 'task.created', task: t2, tasks: [t1, t2] }),
      ev({ type: 'turn.start' }),
      ev({ type: 'task.updated', task: { ...t1, status: 'completed' }, changes: ['status'], tasks: [{ ...t1, status: 'completed' }, t2] }),
    ];
    expect(deriveBoard([])).toBeNull();
    const mid = deriveBoard(events.slice(0, 3))!;
    expect(mid.board.blocked.map((t) => [t.id, t.openBlockers])).toEqual([['2', ['1']]]);
    expect(mid.board.ready.map((t) => t.id)).toEqual(['1']);
    const end = deriveBoard(events)!;
    expect(end.board.completed.map((t) => t.id)).toEqual(['1']);
    expect(end.board.ready.map((t) => t.id)).toEqual(['2']);
    expect(end.changed).toBe('1');
  });

  it("shows a teammate's claim and a release when they happen, not at the owner's next update", () => {
    const t1 = task('1', 'pending');
    const claimed = { ...t1, status: 'in_progress' as const, owner: 'alice' };
    const events = [
      ev({ type: 'task.created', task: t1, tasks: [t1] }),
      ev({ type: 'task.claimed', taskId: '1', subject: 't1', owner: 'alice', contenders: ['alice'], lockWaits: 0, tasks: [claimed] }),
    ];
    const after = deriveBoard(events)!;
    expect(after.board.inProgress.map((t) => [t.id, t.owner])).toEqual([['1', 'alice']]);
    expect(after.changed).toBe('1');
    const back = deriveBoard([...events, ev({ type: 'task.released', owner: 'alice', taskIds: ['1'], why: 'its tab closed', afterMs: 10, tasks: [t1] })])!;
    expect(back.board.ready.map((t) => t.id)).toEqual(['1']);
    expect(back.board.inProgress).toEqual([]);
  });
});

describe('deriveSkills', () => {
  it('pairs every description with its latest load and sums the tokens', () => {
    const listing = (name: string) => ({ name, description: `use ${name}`, origin: 'builtin', path: `skills/${name}/SKILL.md`, descriptionTokens: 5, bodyTokens: 50, allowedTools: [], files: [] });
    const loaded = (name: string, via: 'tool' | 'reattach') =>
      ev({ type: 'skill.loaded', name, origin: 'builtin', path: '', via, description: '', descriptionTokens: 5, body: 'B', bodyTokens: 50, files: [], allowedTools: [], granted: [] });
    const events = [ev({ type: 'skills.available', skills: [listing('a'), listing('b')], problems: [], tokens: 10 }), loaded('a', 'tool'), loaded('a', 'reattach')];
    expect(deriveSkills([])).toBeNull();
    const view = deriveSkills(events)!;
    expect(view.rows.map((r) => [r.name, r.loads, r.loaded?.via ?? null])).toEqual([
      ['a', 2, 'reattach'],
      ['b', 0, null],
    ]);
    expect(view.listingTokens).toBe(10);
    expect(view.loadedTokens).toBe(100);
    expect(summarizeAgentEvent(events[2]!)).toBe('a re-attached after a summary · ~50 tok');
  });
});
