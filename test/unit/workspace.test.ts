/**
 * Isolated workspaces over a real just-bash sandbox: the overlay's semantics (reads see the base,
 * writes and deletes stay in the copy, bash and the file API see the same view, the base is never
 * touched), `changes()` against the snapshot, overlap detection, the refusal to overwrite, and
 * resolution; then two parallel subagents in isolated workspaces editing the same file.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR, type TraceEvent } from '../../src/harness/index.ts';
import { applyMerge, createIsolatedWorkspace, planMerge, type Resolution } from '../../src/harness/workspace/index.ts';
import { parseDefinition } from '../../src/harness/agents/subagents/definitions.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { agentSetup, run, say } from './agents-fixture.ts';

const files = { 'notes.md': 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\n', 'src/a.ts': 'export const a = 1;\n', 'old.txt': 'old\n' };

describe('an isolated workspace', () => {
  it('reads the base files, keeps writes and deletes to itself, and bash sees the same view', async () => {
    const base = await createJustBashSandbox({ files });
    const ws = await createIsolatedWorkspace(base, { id: 'agent-a' });
    expect(ws.root).toBe('/.ws/agent-a/home/project');
    expect(ws.sandbox.workdir).toBe(WORKDIR);
    expect(await ws.sandbox.fs.readFile('src/a.ts')).toBe('export const a = 1;\n');

    await ws.sandbox.fs.writeFile(`${WORKDIR}/src/a.ts`, 'export const a = 2;\n');
    await ws.sandbox.fs.rm('old.txt');
    const sh = await ws.sandbox.exec('cat src/a.ts; echo new > /home/project/b.txt; ls; pwd; test -e old.txt || echo gone');
    expect(sh.exitCode).toBe(0);
    expect(sh.stdout).toBe('export const a = 2;\nb.txt\nnotes.md\nsrc\n/home/project\ngone\n');
    expect(await ws.sandbox.fs.readFile('/home/project/b.txt')).toBe('new\n');
    expect((await ws.sandbox.fs.list(WORKDIR)).map((e) => e.name)).toEqual(['b.txt', 'notes.md', 'src']);
    // A failing read names the agent's path, not the private one.
    await expect(ws.sandbox.fs.readFile('old.txt')).rejects.toMatchObject({ code: 'ENOENT', path: 'old.txt' });

    // The base is untouched.
    expect(await base.fs.readFile('src/a.ts')).toBe('export const a = 1;\n');
    expect(await base.fs.readFile('old.txt')).toBe('old\n');
    expect(await base.fs.stat('b.txt')).toBeNull();
    expect((await base.exec('cat src/a.ts')).stdout).toBe('export const a = 1;\n');

    const changes = await ws.changes();
    expect(changes.map((c) => [c.path, c.kind, c.addedLines, c.removedLines])).toEqual([
      ['b.txt', 'added', 1, 0],
      ['old.txt', 'deleted', 0, 1],
      ['src/a.ts', 'modified', 1, 1],
    ]);
    expect(changes[2]!.patch).toContain('-export const a = 1;\n+export const a = 2;');

    await ws.dispose();
    expect(await base.fs.stat('/.ws/agent-a')).toBeNull();
  });

  it('refuses an id that could escape its folder, and a second workspace with the same id', async () => {
    const base = await createJustBashSandbox({ files });
    await expect(createIsolatedWorkspace(base, { id: '../x' })).rejects.toThrow(/workspace id/);
    await createIsolatedWorkspace(base, { id: 'w1' });
    await expect(createIsolatedWorkspace(base, { id: 'w1' })).rejects.toThrow(/already exists/);
  });
});

describe('merging back', () => {
  async function twoAgents() {
    const base = await createJustBashSandbox({ files });
    const a = await createIsolatedWorkspace(base, { id: 'a' });
    const b = await createIsolatedWorkspace(base, { id: 'b' });
    return { base, a, b };
  }

  it('applies non-overlapping changes and flags a file changed by two agents as a conflict, writing nothing of it', async () => {
    const { base, a, b } = await twoAgents();
    await a.sandbox.exec("sed -i 's/line 2/line two (a)/' notes.md && echo a > a-only.txt");
    await b.sandbox.exec("sed -i 's/line 2/line 2 (b)/' notes.md && echo b > b-only.txt");
    const plan = await planMerge(base.fs, WORKDIR, [
      { workspaceId: 'a', changes: await a.changes() },
      { workspaceId: 'b', changes: await b.changes() },
    ]);
    expect(plan.writes.map((w) => [w.path, w.how])).toEqual([['a-only.txt', 'clean'], ['b-only.txt', 'clean']]);
    expect(plan.conflicts).toHaveLength(1);
    expect(plan.conflicts[0]).toMatchObject({ path: 'notes.md', reason: 'both_changed', current: files['notes.md'] });
    expect(plan.conflicts[0]!.sides.map((s) => s.workspaceId)).toEqual(['a', 'b']);

    const result = await applyMerge(base.fs, WORKDIR, plan);
    expect(result.applied).toEqual(['a-only.txt', 'b-only.txt']);
    expect(result.conflicts.map((c) => c.path)).toEqual(['notes.md']);
    expect(await base.fs.readFile('notes.md')).toBe(files['notes.md']);
    expect(await base.fs.readFile('a-only.txt')).toBe('a\n');
  });

  it('merges hunks that do not overlap three-way, and refuses ones that do when the base moved on', async () => {
    const { base, a, b } = await twoAgents();
    await a.sandbox.exec("sed -i 's/line 1/line one/' notes.md");
    await b.sandbox.exec("sed -i 's/line 8/line eight/' notes.md");
    // a merges first; b's copy is now behind the base, but its hunk is far from a's.
    await applyMerge(base.fs, WORKDIR, await planMerge(base.fs, WORKDIR, [{ workspaceId: 'a', changes: await a.changes() }]));
    const planB = await planMerge(base.fs, WORKDIR, [{ workspaceId: 'b', changes: await b.changes() }]);
    expect(planB.writes.map((w) => [w.path, w.how])).toEqual([['notes.md', 'auto_merged']]);
    await applyMerge(base.fs, WORKDIR, planB);
    expect(await base.fs.readFile('notes.md')).toBe(files['notes.md'].replace('line 1', 'line one').replace('line 8', 'line eight'));

    // Now the base changes line 5 by hand while c changes it too: refused, nothing written.
    const c = await createIsolatedWorkspace(base, { id: 'c' });
    await c.sandbox.fs.writeFile('notes.md', (await c.sandbox.fs.readFile('notes.md')).replace('line 5', 'line 5 by c'));
    await base.fs.writeFile('notes.md', (await base.fs.readFile('notes.md')).replace('line 5', 'line 5 by hand'));
    const planC = await planMerge(base.fs, WORKDIR, [{ workspaceId: 'c', changes: await c.changes() }]);
    expect(planC.conflicts.map((x) => [x.path, x.reason])).toEqual([['notes.md', 'base_changed']]);
    const res = await applyMerge(base.fs, WORKDIR, planC);
    expect(res.applied).toEqual([]);
    expect(await base.fs.readFile('notes.md')).toContain('line 5 by hand');
  });

  it('resolves a conflict by taking mine, theirs or an edit; a stale plan is refused, not written', async () => {
    for (const [resolution, expected] of [
      [{ take: 'workspace', workspaceId: 'b' }, 'line 2 (b)'],
      [{ take: 'base' }, 'line 2\n'],
      [{ take: 'content', content: 'edited by hand\n' }, 'edited by hand'],
    ] as [Resolution, string][]) {
      const { base, a, b } = await twoAgents();
      await a.sandbox.exec("sed -i 's/line 2/line two (a)/' notes.md");
      await b.sandbox.exec("sed -i 's/line 2/line 2 (b)/' notes.md");
      const plan = await planMerge(base.fs, WORKDIR, [
        { workspaceId: 'a', changes: await a.changes() },
        { workspaceId: 'b', changes: await b.changes() },
      ]);
      const res = await applyMerge(base.fs, WORKDIR, plan, new Map([['notes.md', resolution]]));
      expect(res).toEqual({ applied: ['notes.md'], conflicts: [] });
      expect(await base.fs.readFile('notes.md')).toContain(expected);
    }

    const { base, a } = await twoAgents();
    await a.sandbox.fs.writeFile('src/a.ts', 'mine\n');
    const plan = await planMerge(base.fs, WORKDIR, [{ workspaceId: 'a', changes: await a.changes() }]);
    expect(plan.writes[0]!.how).toBe('clean');
    await base.fs.writeFile('src/a.ts', 'changed after the plan\n');
    const res = await applyMerge(base.fs, WORKDIR, plan);
    expect(res.applied).toEqual([]);
    expect(res.conflicts[0]).toMatchObject({ path: 'src/a.ts', reason: 'base_changed', current: 'changed after the plan\n' });
    expect(await base.fs.readFile('src/a.ts')).toBe('changed after the plan\n');
  });
});

describe('subagents in isolated workspaces', () => {
  it('accepts Claude Code\'s isolation: worktree in a definition', () => {
    const r = parseDefinition('.claude/agents/w.md', '---\nname: w\ndescription: d\nisolation: worktree\n---\nbody');
    expect(r.ok && r.definition.isolation).toBe('overlay');
    const bad = parseDefinition('.claude/agents/w.md', '---\nname: w\ndescription: d\nisolation: chroot\n---\nbody');
    expect(bad.ok).toBe(false);
  });

  it('a definition with isolation: worktree gets a workspace without asking in the call; an agent without one shares the files', async () => {
    const def = '---\nname: iso\ndescription: works in a copy\nisolation: worktree\n---\nYou work in a copy.';
    const touch = (name: string) => [{ content: [{ type: 'tool_use' as const, name: 'bash', input: { command: `echo x > ${name}.txt` } }] }, say('ok')];
    const s = await agentSetup(
      [{ content: [{ type: 'tool_use', id: 'toolu_1', name: 'agent', input: { description: 'isolated', prompt: 'p', subagent_type: 'iso' } }] }, { content: [{ type: 'tool_use', id: 'toolu_2', name: 'agent', input: { description: 'shared', prompt: 'p' } }] }, say('done')],
      { files: { ...files, '.claude/agents/iso.md': def }, agents: { isolated: touch('iso'), shared: touch('shared') } },
    );
    const { events } = await run(s);
    const created = events.filter((e) => e.type === 'workspace.created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ forAgentId: 'agent-iso_0001' });
    expect(events.find((e) => e.type === 'workspace.merge')).toMatchObject({ applied: [{ path: 'iso.txt', how: 'clean' }], conflicts: [] });
    expect(await s.deps.sandbox.fs.readFile('iso.txt')).toBe('x\n');
    expect(await s.deps.sandbox.fs.readFile('shared.txt')).toBe('x\n');
  });

  it('two parallel agents edit the same file: the first merges, the second is a conflict the lead is told about', async () => {
    const call = (id: string, description: string) => ({ type: 'tool_use' as const, id, name: 'agent', input: { description, prompt: `${description}.`, isolation: 'worktree' } });
    const edit = (to: string) => ({ content: [{ type: 'tool_use' as const, name: 'bash', input: { command: `sed -i 's/line 2/${to}/' notes.md && cat notes.md | head -2` } }] });
    const s = await agentSetup([{ content: [call('toolu_a', 'reword line two'), call('toolu_b', 'number line two')] }, say('Agent b hit a conflict.')], {
      files,
      agents: { 'reword line two': [edit('the second line'), say('done a')], 'number line two': [edit('line 2 (two)'), say('done b')] },
    });
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const ws = (t: string) => events.filter((e) => e.type === t) as Extract<TraceEvent, { type: `workspace.${string}` }>[];
    expect(ws('workspace.created')).toHaveLength(2);
    const merges = ws('workspace.merge') as Extract<TraceEvent, { type: 'workspace.merge' }>[];
    expect(merges.map((m) => [m.applied.map((x) => x.path), m.conflicts])).toEqual([[['notes.md'], []], [[], ['notes.md']]]);
    const conflict = ws('workspace.conflict')[0] as Extract<TraceEvent, { type: 'workspace.conflict' }>;
    expect(conflict.mergedBy).toBe(merges[0]!.workspaceId);
    expect(conflict.workspaceId).toBe(merges[1]!.workspaceId);
    expect(conflict.conflict.current).toBe(await s.deps.sandbox.fs.readFile('notes.md'));
    expect(conflict.conflict.sides.map((x) => x.workspaceId)).toEqual([merges[1]!.workspaceId]);
    // Each child saw its own edit in bash, never the other's.
    const outs = events.filter((e) => e.type === 'tool.result' && e.name === 'bash').map((e) => (e as Extract<TraceEvent, { type: 'tool.result' }>).content);
    expect(outs.sort()).toEqual(['line 1\nline 2 (two)', 'line 1\nthe second line'].sort());
    // The base got the first merge only; the lead's result for the second says CONFLICT.
    const winner = merges[0]!.forAgentId;
    const text = await s.deps.sandbox.fs.readFile('notes.md');
    expect(text.split('\n')[1]).toBe(winner.endsWith('0001') ? 'the second line' : 'line 2 (two)');
    const leadResults = events.filter((e) => e.type === 'tool.result' && e.agentId === 'main').map((e) => String((e as Extract<TraceEvent, { type: 'tool.result' }>).content));
    expect(leadResults.filter((r) => r.includes('CONFLICT in notes.md'))).toHaveLength(1);
    expect(await s.deps.sandbox.fs.stat('/.ws')).toMatchObject({ kind: 'dir' });
    expect(await s.deps.sandbox.fs.list('/.ws')).toEqual([]);
  });
});

describe('the isolated-workspaces lesson', () => {
  it('merges the first agent, refuses the second agent\'s overlapping line, merges its new file, and the lead resolves it', async () => {
    const { FakeClock, SequentialIds } = await import('../../src/harness/index.ts');
    const { builtinDocs } = await import('../../src/scenarios/library/index.ts');
    const { runLessonHeadless } = await import('../../src/run/run-lesson.ts');
    const doc = builtinDocs.find((d) => d.id === 'isolated-workspaces-overlap')!;
    const sandbox = await createJustBashSandbox();
    const { log, results } = await runLessonHeadless(doc, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    expect(results.at(-1)!.reason).toBe('completed');
    const conflicts = log.filter((e) => e.type === 'workspace.conflict');
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ conflict: { path: 'settings.env', current: 'PORT=8080\nMODE=prod\nLOG_LEVEL=info\n' }, mergedBy: 'agent-general-purpose_0001' });
    // The second agent's bash saw its own copy.
    expect(log.some((e) => e.type === 'tool.result' && e.name === 'bash' && e.content === 'shop on 8080 in staging mode')).toBe(true);
    // The private trees never show up as changed files of the run.
    expect(log.filter((e) => e.type === 'sandbox.changed').flatMap((e) => e.paths).some((p) => p.startsWith('/.ws'))).toBe(false);
    expect(await sandbox.fs.readFile('settings.env')).toBe('PORT=8080\nMODE=staging\nLOG_LEVEL=info\n');
    expect(await sandbox.fs.readFile('docs/deploy.md')).toContain('# Deploy to staging');
  });
});
