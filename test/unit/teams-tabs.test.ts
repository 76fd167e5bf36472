/**
 * A teammate in another tab: two teams (two sandboxes, as two tabs have) joined by the real
 * BroadcastChannel transport (Node has BroadcastChannel between channels of one process). Mail
 * crosses both ways and lands in each tab's own mailbox files first; presence makes the remote
 * teammate a lane of the lead's team; its tab closing marks it gone and the lead stops waiting.
 */
import { describe, expect, it } from 'vitest';
import { checkTranscript, type TraceEvent } from '../../src/harness/index.ts';
import { allMessages } from '../../src/harness/agents/teams/index.ts';
import { broadcastTransport } from '../../src/team-transport/broadcast.ts';
import { call, runAll, say, teamSetup, turn } from './teams-fixture.ts';

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
