/**
 * Isolated workspaces in a git project (real just-bash, its isomorphic-git `git`, scripted
 * agents): each agent works in a linked worktree on its own branch, its work is committed there,
 * and the merge back is a real merge commit — or, when the agents overlap, a conflict that is
 * refused (never overwritten) with the merge left in progress until the lead commits. Without git
 * (no repository, or a sandbox with no git port) the workspace is the plain copy it always was.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR, type Sandbox, type TraceEvent } from '../../src/harness/index.ts';
import { branchFor } from '../../src/harness/workspace/git-backing.ts';
import { createIsolatedWorkspace } from '../../src/harness/workspace/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { agentSetup, run, say } from './agents-fixture.ts';

const files = { 'notes.md': 'line 1\nline 2\nline 3\n', 'src/a.ts': 'export const a = 1;\n' };

type Ev<T extends string> = Extract<TraceEvent, { type: T }>;
const of = <T extends TraceEvent['type']>(events: TraceEvent[], type: T) => events.filter((e) => e.type === type) as Ev<T>[];
const sh = async (sb: Sandbox, command: string, cwd = WORKDIR) => (await sb.exec(command, { cwd, timeoutMs: 20_000 })).stdout;
const subjects = async (sb: Sandbox) => (await sh(sb, 'git log --oneline')).split('\n').filter(Boolean).map((l) => l.slice(8));

async function seed(sb: Sandbox): Promise<void> {
  expect((await sb.exec('git init -q -b main && git add -A && git commit -q -m "initial commit"')).exitCode).toBe(0);
}

const isolated = (id: string, description: string) => ({ type: 'tool_use' as const, id, name: 'agent', input: { description, prompt: `${description}.`, isolation: 'worktree' } });
const bash = (command: string) => ({ content: [{ type: 'tool_use' as const, name: 'bash', input: { command } }] });

describe('isolated workspaces in a git project', () => {
  it('two agents on branches edit different files: each is committed on its branch and merged with a real merge commit', async () => {
    const s = await agentSetup([{ content: [isolated('toolu_a', 'edit the notes'), isolated('toolu_b', 'edit the code')] }, say('Both merged.')], {
      files,
      agents: {
        'edit the notes': [bash("sed -i 's/line 2/the second line/' notes.md"), say('done a')],
        'edit the code': [bash("sed -i 's/1/2/' src/a.ts && echo 'export const b = 1;' > src/b.ts"), say('done b')],
      },
    });
    const sb = s.deps.sandbox;
    await seed(sb);
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');

    const created = of(events, 'workspace.created');
    expect(created.map((c) => c.git?.branch).sort()).toEqual(['agent/general-purpose-0001', 'agent/general-purpose-0002']);
    const head0 = created[0]!.git!.base;
    expect(created.every((c) => c.git!.base === head0)).toBe(true);
    const changes = of(events, 'workspace.changes');
    expect(changes.every((c) => /^[0-9a-f]{40}$/.test(c.git?.commit ?? ''))).toBe(true);
    const merges = of(events, 'workspace.merge');
    expect(merges.map((m) => [m.conflicts, m.git?.inProgress, /^[0-9a-f]{40}$/.test(m.git?.commit ?? '')])).toEqual([
      [[], false, true],
      [[], false, true],
    ]);

    // The files are merged, and git says so: two merge commits, each bringing in the agent's commit.
    expect(await sb.fs.readFile('notes.md')).toBe('line 1\nthe second line\nline 3\n');
    expect(await sb.fs.readFile('src/a.ts')).toBe('export const a = 2;\n');
    expect(await sh(sb, 'git status --short')).toBe('');
    const log = await subjects(sb);
    expect(log.filter((l) => l.startsWith("Merge branch 'agent/"))).toHaveLength(2);
    expect(log).toContain('agent-general-purpose_0001: edit the notes');
    expect(log).toContain('agent-general-purpose_0002: edit the code');
    expect(log.at(-1)).toBe('initial commit');
    expect((await sh(sb, 'git log -1')).split('\n')[0]).toBe(`commit ${merges[1]!.git!.commit}`);
    expect(await sh(sb, 'git branch')).toBe('  agent/general-purpose-0001\n  agent/general-purpose-0002\n* main\n');
    // The worktrees are gone, the branches stay.
    expect((await sh(sb, 'git worktree list')).split('\n').filter(Boolean)).toHaveLength(1);
    expect(await sb.fs.list('/.ws')).toEqual([]);
    const lead = events.filter((e) => e.type === 'tool.result' && e.agentId === 'main').map((e) => String((e as Ev<'tool.result'>).content));
    expect(lead.filter((r) => /Branch agent\/general-purpose-000\d \(commit [0-9a-f]{7}\): merged with merge commit [0-9a-f]{7}\./.test(r))).toHaveLength(2);
  });

  it('two agents edit the same line: the second is a conflict, nothing is overwritten, and the merge stays in progress until the lead commits', async () => {
    const s = await agentSetup(
      [
        { content: [isolated('toolu_a', 'reword line two'), isolated('toolu_b', 'number line two')] },
        bash('git status'),
        bash("sed -i '2s/.*/line 2, agreed/' notes.md && git commit -q -am 'Resolve notes.md' && git log --oneline"),
        say('Resolved.'),
      ],
      {
        files,
        agents: {
          'reword line two': [bash("sed -i 's/line 2/the second line/' notes.md"), say('done a')],
          'number line two': [bash("sed -i 's/line 2/line 2 (two)/' notes.md && echo new > extra.md"), say('done b')],
        },
      },
    );
    const sb = s.deps.sandbox;
    await seed(sb);
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const merges = of(events, 'workspace.merge');
    expect(merges.map((m) => [m.applied.map((a) => a.path), m.conflicts])).toEqual([
      [['notes.md'], []],
      [['extra.md'], ['notes.md']],
    ]);
    expect(merges[0]!.git).toMatchObject({ inProgress: false, commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(merges[1]!.git).toEqual({ branch: merges[1]!.git!.branch, commit: null, inProgress: true });
    const conflict = of(events, 'workspace.conflict')[0]!;
    expect(conflict.mergedBy).toBe(merges[0]!.workspaceId);
    // No silent overwrite: the file held the first merge when the second was refused.
    const winner = conflict.conflict.current!;
    expect(winner.split('\n')[1]).toBe(merges[0]!.forAgentId.endsWith('0001') ? 'the second line' : 'line 2 (two)');

    const leadBash = events.filter((e) => e.type === 'tool.result' && e.agentId === 'main' && e.name === 'bash').map((e) => String((e as Ev<'tool.result'>).content));
    expect(leadBash[0]).toContain('All conflicts fixed but you are still merging.');
    expect(leadBash[0]).toContain('new file:   extra.md');
    const leadAgent = events.filter((e) => e.type === 'tool.result' && e.agentId === 'main' && e.name === 'agent').map((e) => String((e as Ev<'tool.result'>).content));
    expect(leadAgent.filter((r) => r.includes('the merge is in progress (MERGE_HEAD)'))).toHaveLength(1);
    expect(leadAgent.filter((r) => r.includes('CONFLICT in notes.md'))).toHaveLength(1);

    // The lead's commit concluded the merge: both agents' commits are reachable from main.
    const log = await subjects(sb);
    expect(log[0]).toBe('Resolve notes.md');
    expect(log).toContain('agent-general-purpose_0001: reword line two');
    expect(log).toContain('agent-general-purpose_0002: number line two');
    expect(await sb.fs.readFile('notes.md')).toBe('line 1\nline 2, agreed\nline 3\n');
    expect(await sh(sb, 'git status')).toBe('On branch main\nnothing to commit, working tree clean\n');
  });

  it('a subagent with isolation: worktree works on its branch: git in its bash shows the branch and only its own change', async () => {
    const s = await agentSetup([{ content: [isolated('toolu_a', 'look around')] }, say('ok')], {
      files,
      agents: {
        'look around': [bash('echo more >> notes.md && git branch --show-current && git status --short && git rev-parse --show-toplevel && git log --oneline'), say('done')],
      },
    });
    const sb = s.deps.sandbox;
    await seed(sb);
    const { events } = await run(s);
    const out = String(events.find((e): e is Ev<'tool.result'> => e.type === 'tool.result' && e.name === 'bash')!.content);
    expect(out).toMatch(/^agent\/general-purpose-0001\n M notes\.md\n\/home\/project\n[0-9a-f]{7} initial commit$/);
    expect(of(events, 'workspace.created')[0]).toMatchObject({ root: '/.ws/agent-general-purpose_0001/home/project', files: 2, git: { branch: 'agent/general-purpose-0001' } });
    expect(await sh(sb, 'git log --oneline -1 agent/general-purpose-0001')).toMatch(/^[0-9a-f]{7} agent-general-purpose_0001: look around\n$/);
  });

  it('an uncommitted edit in the project is not in the worktree, and the merge refuses to overwrite it', async () => {
    const sb = await createJustBashSandbox({ files });
    await seed(sb);
    await sb.fs.writeFile('notes.md', 'line 1\nline 2 (uncommitted)\nline 3\n');
    const ws = await createIsolatedWorkspace(sb, { id: 'agent-x', task: 'tidy' });
    expect(ws.git?.branch).toBe('agent/x');
    expect(await ws.sandbox.fs.readFile('notes.md')).toBe('line 1\nline 2\nline 3\n');
    await ws.sandbox.fs.writeFile('notes.md', 'line 1\nline two\nline 3\n');
    const { offerBack } = await import('../../src/harness/workspace/index.ts');
    const got: string[] = [];
    const r = await offerBack(sb, ws, 'agent-x', async (e) => void got.push(e.type));
    expect(r.conflicts.map((c) => c.path)).toEqual(['notes.md']);
    expect(await sb.fs.readFile('notes.md')).toBe('line 1\nline 2 (uncommitted)\nline 3\n');
    expect(got).toEqual(['workspace.changes', 'workspace.merge', 'workspace.conflict']);
    await ws.dispose();
  });

  it('without git the workspace is the plain copy: no repository, or a sandbox with no git port', async () => {
    const plain = await createJustBashSandbox({ files });
    const ws = await createIsolatedWorkspace(plain, { id: 'agent-p' });
    expect(ws.git).toBeUndefined();
    expect(await plain.fs.stat(`${ws.root}/.git`)).toBeNull();
    expect([...ws.snapshot.keys()].sort()).toEqual(['notes.md', 'src/a.ts']);

    // A git project in a sandbox that offers no git port (as WebContainer): still a copy, no branch.
    const repo = await createJustBashSandbox({ files });
    await seed(repo);
    const noPort: Sandbox = { ...repo, git: undefined } as Sandbox;
    delete (noPort as { git?: unknown }).git;
    const copy = await createIsolatedWorkspace(noPort, { id: 'agent-q' });
    expect(copy.git).toBeUndefined();
    expect(await repo.fs.stat(`${copy.root}/.git`)).toBeNull();
    expect(await sh(repo, 'git branch')).toBe('* main\n');
  });

  it('names branches agent/<name>: a teammate by name, a subagent by type and the end of its id', () => {
    expect(branchFor('teammate-alice')).toBe('agent/alice');
    expect(branchFor('agent-general-purpose_01nScvk8ZvzmLAZowW3zVHuu')).toBe('agent/general-purpose-3zVHuu');
    expect(branchFor('agent-iso_0001')).toBe('agent/iso-0001');
    expect(branchFor('w1')).toBe('agent/w1');
  });
});
