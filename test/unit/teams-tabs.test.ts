/**
 * A teammate in another tab: two teams (two sandboxes, as two tabs have) joined by the real
 * BroadcastChannel transport (Node has BroadcastChannel between channels of one process). Mail
 * crosses both ways and lands in each tab's own mailbox files first; presence makes the remote
 * teammate a lane of the lead's team; its tab closing marks it gone and the lead stops waiting.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, checkTranscript, type TraceEvent } from '../../src/harness/index.ts';
import { allMessages, isolatedTeammateWorkspace, teammateTabRun, withTeamEnd } from '../../src/harness/agents/teams/index.ts';
import { readTasks } from '../../src/harness/agents/tasks/store.ts';
import { deriveTeam } from '../../src/ui/team/derive.ts';
import { deriveBoard } from '../../src/ui/agents/derive.ts';
import { broadcastTransport } from '../../src/team-transport/broadcast.ts';
import { call, runAll, say, teamSetup, turn } from './teams-fixture.ts';
import { eventsOf } from '../helpers/events.ts';

describe('a teammate in another tab', () => {
  it('exchanges mail over the BroadcastChannel, files first, and is gone when its tab closes', async () => {
    const channel = `test-team-${Math.random()}`;
    const a = await teamSetup(
      [turn(call('read_inbox', {})), turn(call('send_message', { to: 'bob', body: 'thanks, bob' })), turn(call('read_inbox', {})), say('bob has left.')],
      {},
      { runtime: { releaseAfterMs: 1_000 } },
    );
    const b = await teamSetup([], { bob: [turn(call('send_message', { to: 'lead', body: 'hello from tab B' })), say('Waiting.'), say('Bye.')] }, { runtime: { hostsLead: false } });
    a.team.attachTransport(broadcastTransport(channel), 'A');
    b.team.attachTransport(broadcastTransport(channel), 'B');

    const stop = new AbortController();
    let idles = 0;
    const bSink = async (e: unknown) => {
      const ev = e as TraceEvent;
      // bob's second turn ended: his tab closes.
      if (ev.type === 'agent.state' && ev.name === 'bob' && ev.to === 'idle' && ev.from === 'working' && ++idles === 2) {
        b.team.detachTransport();
        stop.abort();
      }
    };
    await b.team.spawn({ name: 'bob', prompt: 'Say hello to the lead.' }, bSink);
    const serve = (async () => {
      while (!stop.signal.aborted) {
        await b.team.pump(bSink, async () => false, stop.signal);
        await b.team.waitForWire(stop.signal);
      }
    })();

    // The lead's tab hears of bob (his hello) before its run starts.
    await a.team.waitForWire();
    const { events, result } = await runAll(a);
    await serve;
    expect(result.reason).toBe('completed');

    // The lead's tab saw bob arrive, his mail, his states, and his tab closing.
    const bobStates = events.filter((e): e is Extract<TraceEvent, { type: 'agent.state' }> => e.type === 'agent.state' && e.name === 'bob');
    expect(bobStates[0]).toMatchObject({ from: 'new', agentId: 'teammate-bob' });
    expect(bobStates.at(-1)).toMatchObject({ to: 'gone' });
    expect(a.team.members.get('bob')!.state).toBe('gone');
    const leadRead = events.find((e) => e.type === 'tool.result' && e.name === 'read_inbox');
    expect(leadRead && 'content' in leadRead ? leadRead.content : '').toContain('hello from tab B');

    // Files first, in each tab: A's copy of the lead's mailbox and B's copy of bob's.
    expect((await allMessages(a.deps.sandbox.fs, a.deps.sandbox.workdir, 'lead')).map((m) => m.body)).toEqual(['hello from tab B']);
    expect((await allMessages(b.deps.sandbox.fs, b.deps.sandbox.workdir, 'bob')).map((m) => m.body)).toEqual(['Say hello to the lead.', 'thanks, bob']);
    // Message ids carry their tab, so the two tabs' numbering never collides.
    expect((await allMessages(a.deps.sandbox.fs, a.deps.sandbox.workdir, 'lead'))[0]!.id).toMatch(/^msg-B-/);
    expect(checkTranscript(b.team.members.get('bob')!.history)).toEqual([]);
    expect(checkTranscript(result.messages)).toEqual([]);
  });
});

describe('a tab that joins as a teammate the lead spawned in_tab', () => {
  it('gets a copy, claims through the lead’s tab, mail and reads cross, and its tab closing releases its task', async () => {
    const channel = `test-join-${Math.random()}`;
    const a = await teamSetup(
      [
        turn(call('task_create', { subject: 'Write notes.txt' })),
        turn(call('spawn_teammate', { name: 'carol', prompt: 'Claim a task and tell me.', auto_claim: true, in_tab: true })),
        turn(call('read_inbox', {})),
        turn(call('task_create', { subject: 'Review notes.txt', blockedBy: ['1'] })),
        turn(call('send_message', { to: 'carol', body: 'thanks, carol' })),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        say('carol has left; #1 is back on the board.'),
      ],
      {},
      // No join timeout: the FakeClock jumps to any deadline at once, before tab B's hello could arrive
      // (teams-presence.test.ts tests the timeout on a clock that waits).
      { files: { 'README.md': '# notes\n' }, runtime: { workspace: isolatedTeammateWorkspace, releaseAfterMs: 1_000, joinTimeoutMs: 0 } },
    );
    const b = await teamSetup(
      [],
      {
        carol: [
          say('Ready.'),
          turn(call('write', { file_path: '/home/project/notes.txt', content: 'notes from tab B\n' })),
          turn(call('send_message', { to: 'lead', body: 'I have #1; notes.txt started.' })),
          say('Working on it.'),
          say('You are welcome.'),
        ],
      },
      { runtime: { hostsLead: false } },
    );
    a.team.attachTransport(broadcastTransport(channel), 'A');
    b.team.attachTransport(broadcastTransport(channel), 'B');

    // Tab B asks to be carol before the lead has even spawned her: the hello waits in A's queue.
    const closeB = new AbortController();
    const bEvents: TraceEvent[] = [];
    let idles = 0;
    const serve = (async () => {
      const gen = teammateTabRun(b.team, 'carol', { clock: b.clock, signal: closeB.signal });
      for (let s = await gen.next(); !s.done; s = await gen.next()) {
        bEvents.push(s.value);
        // carol's third turn ended (after the lead's thanks): her tab closes (pagehide).
        if (s.value.type === 'agent.state' && s.value.name === 'carol' && s.value.from === 'working' && s.value.to === 'idle' && ++idles === 3) {
          b.team.detachTransport();
          closeB.abort();
        }
      }
    })();
    const events = await drainAll(withTeamEnd(agentLoop(a.input, a.deps), a.team, { clock: a.clock }));
    await serve;

    // B took the lead's copy and its mail; carol's loop ran in B (her events are B's).
    expect(bEvents.find((e) => e.type === 'teammate.joined')).toMatchObject({ name: 'carol', side: 'teammate', files: 1, tasks: 1, messages: 1 });
    expect(bEvents.some((e) => e.type === 'model.request' && e.agentId === 'teammate-carol')).toBe(true);
    expect(events.some((e) => e.type === 'model.request' && e.agentId === 'teammate-carol')).toBe(false);
    expect(events.find((e) => e.type === 'teammate.joined')).toMatchObject({ name: 'carol', tab: 'B', side: 'lead' });

    // The claim was decided in A under A's board lock, and shows in both tabs.
    expect(events.find((e) => e.type === 'task.claimed')).toMatchObject({ owner: 'carol', taskId: '1', agentId: 'teammate-carol' });
    expect(bEvents.find((e) => e.type === 'task.claimed')).toMatchObject({ owner: 'carol', taskId: '1' });

    // Mail crossed both ways, files first in each tab; carol's read reached A (her unread is 0 there).
    expect((await allMessages(a.deps.sandbox.fs, a.deps.sandbox.workdir, 'lead')).map((m) => m.body)).toContain('I have #1; notes.txt started.');
    expect((await allMessages(b.deps.sandbox.fs, b.deps.sandbox.workdir, 'carol')).map((m) => m.body)).toEqual(['Claim a task and tell me.', 'thanks, carol']);
    expect(deriveTeam(events)!.lanes.find((l) => l.name === 'carol')!.unread).toBe(0);
    expect(events.filter((e) => e.type === 'mailbox.read' && e.reader === 'carol')).toHaveLength(2);

    // Her tab closed: gone in A, her copy offered back and merged, and after the timeout #1 is back on the board.
    const states = events.filter((e): e is Extract<TraceEvent, { type: 'agent.state' }> => e.type === 'agent.state' && e.name === 'carol').map((e) => e.to);
    expect(states).toContain('working');
    expect(states.at(-1)).toBe('gone');
    expect(await a.deps.sandbox.fs.readFile('/home/project/notes.txt')).toBe('notes from tab B\n');
    expect(events.find((e) => e.type === 'workspace.merge')).toMatchObject({ forAgentId: 'teammate-carol', applied: [{ path: 'notes.txt', how: 'clean' }] });
    const released = events.find((e) => e.type === 'task.released');
    expect(released).toMatchObject({ owner: 'carol', taskIds: ['1'], afterMs: 1_000 });
    expect(deriveBoard(events)!.board.ready.map((t) => t.id)).toEqual(['1']);
    expect((await readTasks(a.deps.sandbox.fs, a.deps.sandbox.workdir)).tasks[0]).toMatchObject({ status: 'pending' });
    expect(events.find((e) => e.type === 'team.ended')).toMatchObject({ teammates: [{ name: 'carol', state: 'gone' }] });
    expect(checkTranscript(b.team.members.get('carol')!.history)).toEqual([]);
    // The lead's own task changes reached carol's board between claims.
    expect(bEvents.find((e) => e.type === 'task.updated' && e.task.id === '2')).toMatchObject({ agentId: 'main', changes: ['created', 'from tab A'] });
    expect((await readTasks(b.deps.sandbox.fs, b.deps.sandbox.workdir)).tasks.map((t) => t.subject)).toEqual(['Write notes.txt', 'Review notes.txt']);
  });

  it('runs an in_tab teammate here, in its own copy, where no other tab can join (no channel)', async () => {
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'carol', prompt: 'x', in_tab: true })), turn(call('read_inbox', {})), say('ok')],
      { carol: [turn(call('write', { file_path: '/home/project/c.txt', content: 'c\n' })), say('Written.')] },
      { runtime: { workspace: isolatedTeammateWorkspace } },
    );
    const events = await drainAll(withTeamEnd(agentLoop(s.input, s.deps), s.team, { clock: s.clock }));
    const result = events.find((e) => e.type === 'tool.result' && e.name === 'spawn_teammate');
    expect(result).toMatchObject({ isError: false, content: expect.stringContaining('No other tab can join this run, so carol runs here') });
    expect(events.find((e) => e.type === 'teammate.spawned')).toMatchObject({ isolation: 'overlay' });
    expect(events.find((e) => e.type === 'team.ended')).toMatchObject({ workspaces: [{ name: 'carol', merged: ['c.txt'] }] });
  });
});

const drainAll = (gen: AsyncGenerator<TraceEvent, unknown>) => eventsOf(gen);
