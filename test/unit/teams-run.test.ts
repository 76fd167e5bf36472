/**
 * Teams against the real loop, just-bash and scripted models: teammates persist across the lead's
 * turns and split a task board by claiming; the s10 protocol (shutdown, plan approval) with
 * request ids and a visible timeout on the Clock; stopping the team with work in flight leaves
 * every transcript valid; teammate events are stamped with their own agent id and sequence.
 */
import { describe, expect, it } from 'vitest';
import { checkTranscript, type TraceEvent } from '../../src/harness/index.ts';
import { allMessages } from '../../src/harness/agents/teams/index.ts';
import { readTasks } from '../../src/harness/agents/tasks/store.ts';
import { historyOf } from './agents-fixture.ts';
import { call, runAll, say, teamSetup, turn } from './teams-fixture.ts';
import { ofType } from '../helpers/events.ts';

const states = (events: TraceEvent[], name: string) => ofType(events, 'agent.state').filter((e) => e.name === name).map((e) => e.to);

const worker = (id: string, who: string) => [turn(call('task_update', { taskId: id, status: 'completed' })), turn(call('send_message', { to: 'lead', body: `${who} finished #${id}` })), say(`#${id} done.`)];

describe('a team splitting a task board', () => {
  it('two auto-claiming teammates drain the board; each task has one owner; every transcript is valid', async () => {
    const s = await teamSetup(
      [
        turn(call('task_create', { subject: 'Write a.txt' }), call('task_create', { subject: 'Write b.txt' }), call('task_create', { subject: 'Check both', blockedBy: ['1'] })),
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Claim tasks from the board.', auto_claim: true }), call('spawn_teammate', { name: 'bob', prompt: 'Claim tasks from the board.', auto_claim: true })),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        say('The team finished the board.'),
      ],
      {
        alice: [say('Ready.'), ...worker('1', 'alice'), ...worker('3', 'alice')],
        bob: [say('Ready.'), ...worker('2', 'bob')],
      },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    const claims = ofType(events, 'task.claimed');
    expect(claims.map((c) => [c.taskId, c.owner])).toEqual([
      ['1', 'alice'],
      ['2', 'bob'],
      ['3', 'alice'],
    ]);
    // The first round was a race between both.
    expect(claims[0]!.contenders).toEqual(['alice', 'bob']);
    const { tasks } = await readTasks(s.deps.sandbox.fs, s.deps.sandbox.workdir);
    expect(tasks.map((t) => [t.id, t.status, t.owner])).toEqual([
      ['1', 'completed', 'alice'],
      ['2', 'completed', 'bob'],
      ['3', 'completed', 'alice'],
    ]);
    // The lead heard from both, through its mailbox file.
    const leadMail = await allMessages(s.deps.sandbox.fs, s.deps.sandbox.workdir, 'lead');
    expect(leadMail.map((m) => m.body)).toEqual(['alice finished #1', 'bob finished #2', 'alice finished #3']);
    // The state machines, and persistence across the lead's turns: alice woke three times in one history.
    expect(states(events, 'alice')).toEqual(['idle', 'working', 'idle', 'working', 'idle', 'working', 'idle', 'done']);
    expect(s.team.members.get('alice')!.history.filter((m) => m.role === 'user' && JSON.stringify(m.content).includes('You claimed task')).length).toBe(2);
    // Teammate events carry their own id and one increasing sequence across wake-ups.
    for (const name of ['alice', 'bob']) {
      const id = `teammate-${name}`;
      const own = events.filter((e) => e.agentId === id);
      expect(own.map((e) => e.seq)).toEqual(own.map((_, i) => i + 1));
      expect(checkTranscript(s.team.members.get(name)!.history)).toEqual([]);
      expect(checkTranscript(historyOf(events, id)).length).toBe(0);
    }
    expect(checkTranscript(result.messages)).toEqual([]);
  });
});

describe('the protocol', () => {
  it('shutdown: request with an id, approval, the teammate stops after its turn', async () => {
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Say hello.' })),
        turn(call('read_inbox', {})),
        turn(call('send_message', { to: 'alice', type: 'shutdown_request', body: 'Please stop.' })),
        turn(call('read_inbox', {})),
        say('Alice has shut down.'),
      ],
      {
        alice: [turn(call('send_message', { to: 'lead', body: 'hello' })), say('Said hello.'), turn(call('send_message', { to: 'lead', type: 'shutdown_response', request_id: 'req-1', approve: true, body: 'Stopping.' })), say('Bye.')],
      },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    const sent = ofType(events, 'mailbox.sent').map((e) => [e.message.from, e.message.to, e.message.type, e.message.requestId ?? null]);
    expect(sent).toEqual([
      ['lead', 'alice', 'message', null],
      ['alice', 'lead', 'message', null],
      ['lead', 'alice', 'shutdown_request', 'req-1'],
      ['alice', 'lead', 'shutdown_response', 'req-1'],
    ]);
    expect(states(events, 'alice').at(-1)).toBe('shut_down');
    expect(s.team.requests.size).toBe(0);
    // A message to a shut-down teammate is refused with a reason.
    const r = await s.team.send({ from: 'lead', to: 'alice', type: 'message', body: 'still there?' }, async () => {});
    expect(r).toMatchObject({ ok: false });
  });

  it('plan approval: the teammate waits for the answer, approval wakes it', async () => {
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Plan the refactor first.' })),
        turn(call('read_inbox', {})),
        turn(call('send_message', { to: 'alice', type: 'plan_response', request_id: 'req-1', approve: true, body: 'Go ahead.' })),
        turn(call('read_inbox', {})),
        say('Plan approved and done.'),
      ],
      {
        alice: [
          turn(call('send_message', { to: 'lead', type: 'plan_submission', body: '1. rename 2. test' })),
          say('Waiting for approval.'),
          turn(call('write', { file_path: '/home/project/done.txt', content: 'refactored\n' })),
          turn(call('send_message', { to: 'lead', body: 'Refactor done.' })),
          say('Done.'),
        ],
      },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    expect(states(events, 'alice')).toEqual(['idle', 'working', 'waiting', 'working', 'idle']);
    // The lead read the plan while alice was waiting, before anything was written.
    const leadRead = ofType(events, 'tool.result').find((e) => e.name === 'read_inbox')!;
    expect(leadRead.content).toContain('plan_submission, request req-1');
    expect(leadRead.content).toContain('alice: waiting');
    expect(await s.deps.sandbox.fs.readFile('/home/project/done.txt')).toBe('refactored\n');
  });

  it('refuses what breaks the protocol: a second request while waiting, a response to nothing, a wrong direction', async () => {
    const s = await teamSetup([say('-')], { alice: [say('hi')] });
    const sink = async () => {};
    await s.team.spawn({ name: 'alice', prompt: 'hi' }, sink);
    expect(await s.team.send({ from: 'alice', to: 'lead', type: 'plan_submission', body: 'plan A' }, sink)).toMatchObject({ ok: true });
    const again = await s.team.send({ from: 'alice', to: 'lead', type: 'plan_submission', body: 'plan B' }, sink);
    expect(again).toMatchObject({ ok: false });
    expect(!again.ok && again.message).toContain('still waiting for the answer to req-1');
    expect(await s.team.send({ from: 'lead', to: 'alice', type: 'plan_response', requestId: 'req-9', approve: true, body: 'ok' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.send({ from: 'alice', to: 'lead', type: 'shutdown_request', body: 'stop' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.send({ from: 'lead', to: 'alice', type: 'plan_response', requestId: 'req-1', body: 'no approve field' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.send({ from: 'lead', to: 'nobody', type: 'message', body: 'x' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.spawn({ name: 'alice', prompt: 'again' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.spawn({ name: 'Lead', prompt: 'x' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.spawn({ name: 'carol', prompt: 'x', isolation: 'overlay' }, sink)).toMatchObject({ ok: false });
    expect(await s.team.send({ from: 'lead', to: 'alice', type: 'plan_response', requestId: 'req-1', approve: false, body: 'no' }, sink)).toMatchObject({ ok: true });
    expect(s.team.requests.size).toBe(0);
  });

  it('an unanswered request times out visibly on the Clock, and the requester is told', async () => {
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Work.' })),
        turn(call('send_message', { to: 'alice', type: 'shutdown_request', body: 'Please stop.' })),
        turn(call('read_inbox', {})),
        say('Alice never answered.'),
      ],
      // Alice ignores the request.
      { alice: [say('Working on it.'), say('Still working.')] },
      { runtime: { requestTimeoutMs: 30_000 } },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    const timeout = ofType(events, 'protocol.timeout')[0]!;
    expect(timeout).toMatchObject({ requestId: 'req-1', request: 'shutdown_request', from: 'lead', to: 'alice' });
    expect(timeout.waitedMs).toBeGreaterThanOrEqual(30_000);
    expect(s.clock.sleeps.some((ms) => ms > 1_000)).toBe(true);
    const read = ofType(events, 'tool.result').filter((e) => e.name === 'read_inbox').at(-1)!;
    expect(read.content).toContain('request_timeout');
  });
});

describe('stopping a team with work in flight', () => {
  it('stop() aborts and drains a teammate mid-reply: every tool_use is answered', async () => {
    const s = await teamSetup(
      [
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Work long.' }), call('spawn_teammate', { name: 'bob', prompt: 'Report quickly.' })),
        turn(call('read_inbox', {})),
        say('Bob reported; I stop here.'),
      ],
      {
        alice: [
          turn(call('bash', { command: 'echo one > one.txt' }), call('bash', { command: 'echo two > two.txt' }), call('bash', { command: 'echo three > three.txt' })),
          turn(call('bash', { command: 'echo four' })),
          turn(call('bash', { command: 'echo five' })),
          say('All done.'),
        ],
        bob: [turn(call('send_message', { to: 'lead', body: 'starting' })), say('Reported.')],
      },
    );
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('completed');
    const alice = s.team.members.get('alice')!;
    // The lead woke when bob's turn ended: alice is still in the middle of her reply.
    expect(alice.state).toBe('working');
    expect(alice.loop).toBeDefined();
    const after: TraceEvent[] = [];
    await s.team.stop(async (e) => void after.push(e as TraceEvent));
    expect(alice.state).toBe('shut_down');
    expect(s.team.members.get('bob')!.state).toBe('shut_down');
    expect(checkTranscript(alice.history)).toEqual([]);
    expect(checkTranscript(historyOf([...events, ...after], 'teammate-alice'))).toEqual([]);
    expect(after.some((e) => e.type === 'run.end')).toBe(true);
  });

  it('stopping the lead while it waits stops the teammates too; every transcript stays valid', async () => {
    const abort = new AbortController();
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'alice', prompt: 'Work.' })), turn(call('read_inbox', {})), say('never reached')],
      { alice: [turn(call('bash', { command: 'echo one' }), call('bash', { command: 'echo two' })), say('Done.')] },
      { signal: abort.signal },
    );
    const { result } = await runAll(s, (e) => {
      if (e.agentId === 'teammate-alice' && e.type === 'tool.started') abort.abort();
    });
    expect(result.reason).toBe('aborted');
    expect(checkTranscript(result.messages)).toEqual([]);
    const alice = s.team.members.get('alice')!;
    await s.team.stop(async () => {});
    expect(alice.state).toBe('shut_down');
    expect(checkTranscript(alice.history)).toEqual([]);
  });
});

describe('a teammate that goes away', () => {
  it('is marked gone, its transcript closes, and after the timeout its claimed task returns to the board for another', async () => {
    const s = await teamSetup(
      [
        turn(call('task_create', { subject: 'Long job' })),
        turn(call('spawn_teammate', { name: 'alice', prompt: 'Claim.', auto_claim: true })),
        turn(call('read_inbox', {})),
        say('alice is on it.'),
      ],
      {
        alice: [say('Ready.'), turn(call('send_message', { to: 'lead', body: 'claimed #1' }), call('bash', { command: 'echo working' })), turn(call('bash', { command: 'echo more' })), say('never reached')],
        bob: [say('Ready.'), turn(call('task_update', { taskId: '1', status: 'completed' })), say('Finished #1.')],
      },
      { runtime: { releaseAfterMs: 5_000 } },
    );
    await runAll(s);
    const fs = s.deps.sandbox.fs;
    const wd = s.deps.sandbox.workdir;
    expect((await readTasks(fs, wd)).tasks[0]).toMatchObject({ owner: 'alice', status: 'in_progress' });
    const events: TraceEvent[] = [];
    const sink = async (e: unknown) => void events.push(e as TraceEvent);
    const sleptBefore = s.clock.sleeps.length;
    expect(await s.team.markGone('alice', sink)).toEqual(['1']);
    const alice = s.team.members.get('alice')!;
    expect(alice.state).toBe('gone');
    expect(checkTranscript(alice.history)).toEqual([]);
    expect(s.clock.sleeps.slice(sleptBefore)).toContain(5_000);
    expect(events.find((e) => e.type === 'task.released')).toMatchObject({ owner: 'alice', taskIds: ['1'], afterMs: 5_000 });
    expect(events.filter((e) => e.type === 'agent.state').map((e) => (e as { to: string }).to)).toEqual(['gone']);
    expect((await readTasks(fs, wd)).tasks[0]).toMatchObject({ status: 'pending' });
    expect((await readTasks(fs, wd)).tasks[0]!.owner).toBeUndefined();
    // Mail to a gone teammate is refused; another teammate claims the released task.
    expect(await s.team.send({ from: 'lead', to: 'alice', type: 'message', body: 'there?' }, sink)).toMatchObject({ ok: false });
    await s.team.spawn({ name: 'bob', prompt: 'Claim.', autoClaim: true }, sink);
    await s.team.pump(sink, async () => false);
    expect((await readTasks(fs, wd)).tasks[0]).toMatchObject({ owner: 'bob', status: 'completed' });
  });
});
