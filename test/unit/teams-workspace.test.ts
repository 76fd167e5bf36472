/**
 * Teammates in isolated workspaces (`isolation: overlay`, or Claude Code's `worktree`), against
 * the real loop, just-bash and scripted models: each works in its own copy; when it finishes
 * (shut down, done, team stopped) its changes are offered back — the first to merge a file wins,
 * an overlapping later change is refused as a conflict (never overwritten) and the lead is told in
 * its mailbox. The task board and mailboxes stay shared. A prepared run has the factory by default.
 */
import { describe, expect, it } from 'vitest';
import { checkTranscript, FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { allMessages, isolatedTeammateWorkspace } from '../../src/harness/agents/teams/index.ts';
import { readTasks } from '../../src/harness/agents/tasks/store.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { historyOf, run } from './agents-fixture.ts';
import { call, runAll, say, teamSetup, turn } from './teams-fixture.ts';
import { ofType } from '../helpers/events.ts';

const files = { 'notes.md': 'line 1\nline 2\nline 3\n', 'b.txt': 'old b\n' };
const runtime = { workspace: isolatedTeammateWorkspace };
const leadResults = (events: TraceEvent[]) => ofType(events, 'tool.result').filter((e) => e.agentId === 'main').map((e) => String(e.content));

function transcriptsValid(events: TraceEvent[], s: Awaited<ReturnType<typeof teamSetup>>, names: string[]): void {
  for (const name of names) {
    const id = `teammate-${name}`;
    const own = events.filter((e) => e.agentId === id);
    expect(own.map((e) => e.seq)).toEqual(own.map((_, i) => i + 1));
    expect(checkTranscript(s.team.members.get(name)!.history)).toEqual([]);
    expect(checkTranscript(historyOf(events, id))).toEqual([]);
  }
}

describe('teammates in isolated workspaces', () => {
  it('in a git project each teammate works on agent/<name>; its work is committed there and merged with a merge commit', async () => {
    const edit = (file: string, req: string) => [
      turn(call('bash', { command: `echo more >> ${file} && git branch --show-current` })),
      say('Edited.'),
      turn(call('send_message', { to: 'lead', type: 'shutdown_response', request_id: req, approve: true, body: 'Stopping.' })),
      say('Bye.'),
    ];
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Extend notes.', isolation: 'worktree' }), call('spawn_teammate', { name: 'bob', prompt: 'Extend b.', isolation: 'worktree' })),
        turn(call('read_inbox', {})),
        turn(call('send_message', { to: 'alice', type: 'shutdown_request', body: 'Please stop.' }), call('send_message', { to: 'bob', type: 'shutdown_request', body: 'Please stop.' })),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        say('Both merged.'),
      ],
      { alice: edit('notes.md', 'req-1'), bob: edit('b.txt', 'req-2') },
      { files, runtime },
    );
    const sb = s.deps.sandbox;
    expect((await sb.exec('git init -q -b main && git add -A && git commit -q -m initial')).exitCode).toBe(0);
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    expect(ofType(events, 'workspace.created').map((e) => e.git?.branch)).toEqual(['agent/alice', 'agent/bob']);
    const bash = ofType(events, 'tool.result').filter((e) => e.name === 'bash').map((e) => String(e.content)).sort();
    expect(bash).toEqual(['agent/alice', 'agent/bob']);
    expect(ofType(events, 'workspace.merge').map((m) => [m.conflicts, m.git?.inProgress])).toEqual([
      [[], false],
      [[], false],
    ]);
    const log = (await sb.exec('git log --oneline')).stdout.split('\n').filter(Boolean).map((l) => l.slice(8));
    expect(log.filter((l) => /^Merge branch 'agent\/(alice|bob)'/.test(l))).toHaveLength(2);
    expect(log).toContain('teammate-alice: teammate alice');
    expect((await sb.exec('git branch')).stdout).toBe('  agent/alice\n  agent/bob\n* main\n');
    expect(await sb.fs.readFile('notes.md')).toBe('line 1\nline 2\nline 3\nmore\n');
    expect(await sb.fs.readFile('b.txt')).toBe('old b\nmore\n');
  });

  it('two teammates edit the same line: the first to finish merges, the second is a conflict; the lead reads both reports', async () => {
    const edit = (who: string, req: string) => [
      turn(call('bash', { command: `sed -i 's/line 2/${who} was here/' notes.md && sed -n 2p notes.md` })),
      say('Edited.'),
      turn(call('send_message', { to: 'lead', type: 'shutdown_response', request_id: req, approve: true, body: 'Stopping.' })),
      say('Bye.'),
    ];
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Reword line 2.', isolation: 'overlay' }), call('spawn_teammate', { name: 'bob', prompt: 'Reword line 2.', isolation: 'worktree' })),
        turn(call('read_inbox', {})),
        turn(call('send_message', { to: 'alice', type: 'shutdown_request', body: 'Please stop.' }), call('send_message', { to: 'bob', type: 'shutdown_request', body: 'Please stop.' })),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        say('Bob hit a conflict.'),
      ],
      { alice: edit('alice', 'req-1'), bob: edit('bob', 'req-2') },
      { files, runtime },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    // Claude Code's spelling is accepted and means overlay.
    expect(ofType(events, 'teammate.spawned').map((e) => e.isolation)).toEqual(['overlay', 'overlay']);
    expect(ofType(events, 'workspace.created').map((e) => e.forAgentId)).toEqual(['teammate-alice', 'teammate-bob']);
    // Each saw its own edit in its copy, never the other's.
    const bash = ofType(events, 'tool.result').filter((e) => e.name === 'bash');
    expect(bash.map((e) => [e.agentId, e.content])).toEqual([
      ['teammate-alice', 'alice was here'],
      ['teammate-bob', 'bob was here'],
    ]);
    const merges = ofType(events, 'workspace.merge');
    expect(merges.map((m) => [m.forAgentId, m.applied.map((a) => a.path), m.conflicts])).toEqual([
      ['teammate-alice', ['notes.md'], []],
      ['teammate-bob', [], ['notes.md']],
    ]);
    const conflicts = ofType(events, 'workspace.conflict');
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]).toMatchObject({ workspaceId: 'teammate-bob', mergedBy: 'teammate-alice', conflict: { path: 'notes.md' } });
    // The base holds the first one's content: the second was refused, not written over it.
    expect(await s.deps.sandbox.fs.readFile('notes.md')).toBe('line 1\nalice was here\nline 3\n');
    // The merge comes after the teammate stopped.
    const aliceDown = events.findIndex((e) => e.type === 'agent.state' && e.name === 'alice' && e.to === 'shut_down');
    expect(aliceDown).toBeGreaterThan(-1);
    expect(events.indexOf(merges[0]!)).toBeGreaterThan(aliceDown);
    // The lead learns both reports as messages from the team, through its read_inbox.
    const fromTeam = (await allMessages(s.deps.sandbox.fs, s.deps.sandbox.workdir, 'lead')).filter((m) => m.from === 'team');
    expect(fromTeam.map((m) => m.body.split(':')[0])).toEqual(["alice's isolated workspace (it is shut_down)", "bob's isolated workspace (it is shut_down)"]);
    expect(leadResults(events).filter((r) => r.includes('CONFLICT in notes.md') && r.includes('bob was here'))).toHaveLength(1);
    expect(leadResults(events).some((r) => r.includes('merged: notes.md'))).toBe(true);
    // Both copies are gone; every transcript is valid.
    expect(await s.deps.sandbox.fs.list('/.ws')).toEqual([]);
    transcriptsValid(events, s, ['alice', 'bob']);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('a teammate editing a distinct file leaves the shared tree untouched while it works and merges cleanly when done; the task board stays shared', async () => {
    const s = await teamSetup(
      [
        turn(call('task_create', { subject: 'Rewrite b.txt' })),
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Claim tasks from the board.', auto_claim: true, isolation: 'worktree' })),
        turn(call('read_inbox', {})),
        turn(call('bash', { command: 'cat b.txt' })),
        turn(call('read_inbox', {})),
        turn(call('bash', { command: 'cat b.txt' })),
        say('b.txt is rewritten.'),
      ],
      {
        alice: [
          say('Ready.'),
          turn(call('bash', { command: 'echo "new b" > b.txt && cat b.txt' })),
          turn(call('task_update', { taskId: '1', status: 'completed' })),
          turn(call('send_message', { to: 'lead', body: 'b.txt rewritten' })),
          say('Done.'),
        ],
      },
      { files, runtime },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    const bash = ofType(events, 'tool.result').filter((e) => e.name === 'bash');
    expect(bash.map((e) => [e.agentId, e.content])).toEqual([
      ['teammate-alice', 'new b'],
      // The lead, after alice wrote and reported, before she finished: the shared file is as it was.
      ['main', 'old b'],
      // After she is done and her copy merged back.
      ['main', 'new b'],
    ]);
    expect(ofType(events, 'agent.state').filter((e) => e.name === 'alice').map((e) => e.to)).toEqual(['idle', 'working', 'idle', 'working', 'idle', 'done']);
    // Her task_update reached the shared board (the claim is there too), and the board is no change of hers.
    const { tasks } = await readTasks(s.deps.sandbox.fs, s.deps.sandbox.workdir);
    expect(tasks.map((t) => [t.id, t.status, t.owner])).toEqual([['1', 'completed', 'alice']]);
    expect(ofType(events, 'workspace.changes').map((e) => e.changes.map((c) => [c.path, c.kind]))).toEqual([[['b.txt', 'modified']]]);
    expect(ofType(events, 'workspace.merge').map((e) => [e.applied, e.conflicts])).toEqual([[[{ path: 'b.txt', how: 'clean' }], []]]);
    expect(ofType(events, 'workspace.conflict')).toEqual([]);
    expect(await s.deps.sandbox.fs.readFile('notes.md')).toBe(files['notes.md']);
    expect(leadResults(events).some((r) => r.includes("alice's isolated workspace (it is done)") && r.includes('merged: b.txt'))).toBe(true);
    expect(await s.deps.sandbox.fs.list('/.ws')).toEqual([]);
    transcriptsValid(events, s, ['alice']);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('stopping the team offers an idle teammate\'s copy back; without changes the lead gets no report', async () => {
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Write c.txt.', isolation: 'overlay' }), call('spawn_teammate', { name: 'bob', prompt: 'Look around.', isolation: 'overlay' })),
        turn(call('read_inbox', {})),
        say('Stopping the team.'),
      ],
      { alice: [turn(call('bash', { command: 'echo c > c.txt' })), say('Wrote c.txt.')], bob: [turn(call('bash', { command: 'ls' })), say('Looked.')] },
      { files, runtime },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    expect(await s.deps.sandbox.fs.stat('c.txt')).toBeNull();
    const after: (TraceEvent | { type: string })[] = [];
    await s.team.stop(async (e) => void after.push(e));
    expect(after.filter((e) => e.type === 'workspace.changes')).toMatchObject([{ forAgentId: 'teammate-alice' }, { forAgentId: 'teammate-bob', changes: [] }]);
    expect(after.filter((e) => e.type === 'workspace.merge')).toMatchObject([{ forAgentId: 'teammate-alice', applied: [{ path: 'c.txt', how: 'clean' }] }]);
    expect(await s.deps.sandbox.fs.readFile('c.txt')).toBe('c\n');
    expect((await allMessages(s.deps.sandbox.fs, s.deps.sandbox.workdir, 'lead')).filter((m) => m.from === 'team').map((m) => m.body.split(':')[0])).toEqual(["alice's isolated workspace (it is shut_down)"]);
    expect(await s.deps.sandbox.fs.list('/.ws')).toEqual([]);
    transcriptsValid(events, s, ['alice', 'bob']);
  });

  it('a prepared run (page and headless) has the factory: the shutdown lesson with alice in a worktree merges her file', async () => {
    const scenario = structuredClone(findBuiltinScenario('team-shutdown')!);
    if (scenario.model.kind !== 'scripted') throw new Error('the lesson is scripted');
    const spawn = scenario.model.turns[0]!.content.find((b) => b.type === 'tool_use' && b.input.name === 'alice')!;
    if (spawn.type !== 'tool_use') throw new Error('a spawn call');
    spawn.input = { ...spawn.input, isolation: 'worktree' };
    scenario.model.agents!.alice![0]!.content.unshift({ type: 'tool_use', name: 'bash', input: { command: 'echo hi > hi.txt' } });
    const sandbox = await createJustBashSandbox({ files: {} });
    const { events, result } = await run(await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true }));
    expect(result.reason).toBe('completed');
    expect(ofType(events, 'workspace.created').map((e) => e.forAgentId)).toEqual(['teammate-alice']);
    expect(ofType(events, 'workspace.merge').map((e) => [e.forAgentId, e.applied.map((a) => a.path)])).toEqual([['teammate-alice', ['hi.txt']]]);
    expect(await sandbox.fs.readFile('hi.txt')).toBe('hi\n');
    expect(checkTranscript(result.messages)).toEqual([]);
  });
});
