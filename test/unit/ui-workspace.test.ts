/**
 * The merge view's model and its resolve action, from a real headless run of the
 * isolated-workspaces lesson stopped right after the conflict: the workspaces in order with their
 * changes and merge results, diff lines classified, and a resolution written through the stale
 * check (a file that moved on since the conflict is refused, not overwritten).
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type EventOf, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { deriveWorkspaces, patchLines } from '../../src/ui/workspace/derive.ts';
import { resolveConflict } from '../../src/ui/workspace/resolve.ts';

const doc = builtinDocs.find((d) => d.id === 'isolated-workspaces-overlap')!;
const { log } = await runLessonHeadless(doc, { sandbox: await createJustBashSandbox(), clock: new FakeClock(), ids: new SequentialIds() });
const atConflict: TraceEvent[] = log.slice(0, log.findIndex((e) => e.type === 'workspace.conflict') + 1);
const conflictEvent = atConflict.at(-1) as EventOf<'workspace.conflict'>;

describe('the merge view model', () => {
  it('lists each workspace with its changes, what merged and what was refused', () => {
    const views = deriveWorkspaces(atConflict);
    expect(views.map((v) => [v.forAgentId, v.changes?.map((c) => c.path), v.merge?.applied.map((a) => a.path), v.conflicts.map((c) => c.conflict.path)])).toEqual([
      ['agent-general-purpose_0001', ['settings.env'], ['settings.env'], []],
      ['agent-general-purpose_0002', ['docs/deploy.md', 'settings.env'], ['docs/deploy.md'], ['settings.env']],
    ]);
    // Before any agent finished: both workspaces, no changes yet.
    const early = deriveWorkspaces(log.slice(0, log.findIndex((e) => e.type === 'workspace.changes')));
    expect(early.map((v) => v.changes)).toEqual([null, null]);
    expect(deriveWorkspaces([])).toEqual([]);
  });

  it('names the branch, the agent\'s commit and the merge of a git-backed workspace; a copy has none', async () => {
    expect(deriveWorkspaces(atConflict).map((v) => v.git)).toEqual([null, null]);
    const gitDoc = builtinDocs.find((d) => d.id === 'isolated-workspaces-git')!;
    const { log: gitLog } = await runLessonHeadless(gitDoc, { sandbox: await createJustBashSandbox(), clock: new FakeClock(), ids: new SequentialIds() });
    const views = deriveWorkspaces(gitLog);
    // The two subagents run side by side: which is created (and listed) first depends on timing.
    expect(views.map((v) => v.git?.branch).sort()).toEqual(['agent/general-purpose-0001', 'agent/general-purpose-0002']);
    expect(views.every((v) => /^[0-9a-f]{40}$/.test(v.git?.commit ?? ''))).toBe(true);
    // One merged with a commit; the other stopped at its conflict, merge in progress (either order).
    expect(views.map((v) => [v.merge?.git?.inProgress, typeof v.merge?.git?.commit]).sort()).toEqual([
      [false, 'string'],
      [true, 'object'],
    ]);
  });

  it('classifies diff lines and drops the file headers', () => {
    const patch = deriveWorkspaces(atConflict)[0]!.changes![0]!.patch;
    expect(patchLines(patch)).toEqual([
      { kind: 'hunk', text: '@@ -1,3 +1,3 @@' },
      { kind: 'ctx', text: ' PORT=8080' },
      { kind: 'del', text: '-MODE=dev' },
      { kind: 'add', text: '+MODE=prod' },
      { kind: 'ctx', text: ' LOG_LEVEL=info' },
    ]);
  });

  it('resolves on the live files, and refuses when the file moved on since the conflict', async () => {
    const live = await createJustBashSandbox({ files: { 'settings.env': conflictEvent.conflict.current! } });
    expect(await resolveConflict(live, conflictEvent.conflict, { take: 'workspace', workspaceId: conflictEvent.workspaceId })).toEqual({ ok: true, path: '/home/project/settings.env' });
    expect(await live.fs.readFile('settings.env')).toBe('PORT=8080\nMODE=staging\nLOG_LEVEL=info\n');
    // Asked again: the file is no longer what the conflict saw, so nothing is written.
    const again = await resolveConflict(live, conflictEvent.conflict, { take: 'base' });
    expect(again.ok).toBe(false);
    expect(!again.ok && again.error).toMatch(/changed again since this conflict was reported/);
    expect(await live.fs.readFile('settings.env')).toBe('PORT=8080\nMODE=staging\nLOG_LEVEL=info\n');
    const wrong = await resolveConflict(live, { ...conflictEvent.conflict, current: 'PORT=8080\nMODE=staging\nLOG_LEVEL=info\n' }, { take: 'workspace', workspaceId: 'nobody' });
    expect(!wrong.ok && wrong.error).toMatch(/did not change settings.env/);
  });
});
