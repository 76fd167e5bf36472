/**
 * Presence across tabs: a join that nobody answers times out on the Clock (the lead's wait ends
 * with a message), and a joined tab that dies without a `bye` is found out by its missed
 * heartbeats — gone, its task released after the timeout. Real BroadcastChannels between two
 * teams (two sandboxes, as two tabs have); the heartbeat test runs on a `ManualClock`, moved only
 * once every note posted so far has arrived, so nothing depends on how fast the machine is.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, type TraceEvent } from '../../src/harness/index.ts';
import { isolatedTeammateWorkspace, teammateTabRun, withTeamEnd, type TeamTransport } from '../../src/harness/agents/teams/index.ts';
import { readTasks } from '../../src/harness/agents/tasks/store.ts';
import { broadcastTransport } from '../../src/team-transport/broadcast.ts';
import { EVENT_EXPLANATIONS } from '../../src/ui/explain/event-explanations.ts';
import { EVENT_KINDS, emptyBreakpoints, matchBreakpoint, toggleBreakpoint } from '../../src/ui/stepper/breakpoints.ts';
import { deriveTeam } from '../../src/ui/team/derive.ts';
import { ManualClock } from './manual-clock.ts';
import { call, say, teamSetup, turn } from './teams-fixture.ts';
import { eventsOf } from '../helpers/events.ts';

const drainAll = (gen: AsyncGenerator<TraceEvent, unknown>, onEvent?: (e: TraceEvent) => void) => eventsOf(gen, onEvent);

/** A transport that counts what it posts and hears, and can die like a crashed tab: no bye, no more beats, nothing heard. */
function tapped(channel: string) {
  const inner = broadcastTransport(channel);
  const tap = { posted: 0, heard: 0, dead: false };
  const transport: TeamTransport = {
    post: (w) => {
      if (tap.dead) return;
      tap.posted++;
      inner.post(w);
    },
    listen: (l) =>
      inner.listen((w) => {
        tap.heard++;
        l(w);
      }),
    close: () => inner.close(),
  };
  const crash = () => {
    tap.dead = true;
    inner.close();
  };
  return { transport, tap, crash };
}

const turnOfTheLoop = () => new Promise<void>((r) => setImmediate(r));

describe('joining a teammate in another tab', () => {
  it('times out on the Clock when no tab joins: the teammate is gone, the lead’s wait ends with a message, a late tab is refused', async () => {
    const channel = `test-join-timeout-${Math.random()}`;
    const a = await teamSetup(
      [turn(call('spawn_teammate', { name: 'carol', prompt: 'Write notes.txt.', in_tab: true })), turn(call('read_inbox', {})), say('Nobody came; I will do it myself.')],
      {},
      { runtime: { workspace: isolatedTeammateWorkspace, joinTimeoutMs: 5_000 } },
    );
    a.team.attachTransport(broadcastTransport(channel), 'A');
    const events = await drainAll(withTeamEnd(agentLoop(a.input, a.deps), a.team, { clock: a.clock }));

    // The wait ran on the Clock to the join deadline (no wall-clock time passed).
    expect(a.clock.sleeps.some((ms) => ms > 4_000 && ms <= 5_000)).toBe(true);
    expect(events.find((e) => e.type === 'teammate.join_timeout')).toMatchObject({ name: 'carol', side: 'lead', timeoutMs: 5_000, agentId: 'teammate-carol', why: 'no tab joined as carol within 5000 ms' });
    expect(a.team.members.get('carol')!.state).toBe('gone');
    const read = events.find((e) => e.type === 'tool.result' && e.name === 'read_inbox');
    expect(read && 'content' in read ? read.content : '').toContain('Nobody joined as carol within 5000 ms, so carol is gone');
    expect(deriveTeam(events)!.lanes.find((l) => l.name === 'carol')).toMatchObject({ state: 'gone', unread: 1, presence: 'join_timeout' });
    expect(events.at(-1)).toMatchObject({ type: 'run.end', reason: 'completed' });

    // A tab that opens carol's link now is told so, and stops: it never waits for a welcome that cannot come.
    const b = await teamSetup([], {}, { runtime: { hostsLead: false } });
    b.team.attachTransport(broadcastTransport(channel), 'B');
    const bEvents = await drainAll(teammateTabRun(b.team, 'carol', { clock: b.clock }));
    expect(bEvents.map((e) => e.type)).toEqual(['teammate.join_timeout']);
    expect(bEvents[0]).toMatchObject({ side: 'teammate', name: 'carol', why: expect.stringContaining('no tab joined as carol within 5000 ms') });
    expect(b.team.refused).toContain('carol is gone');
    a.team.detachTransport();
    b.team.detachTransport();
  });
});

describe('heartbeats between tabs', () => {
  it('a joined tab that dies without a bye is lost after its missed beats: gone, the lead told, its task released after the timeout', async () => {
    const channel = `test-heartbeat-${Math.random()}`;
    const clock = new ManualClock();
    const a = await teamSetup(
      [
        turn(call('task_create', { subject: 'Write notes.txt' })),
        turn(call('spawn_teammate', { name: 'carol', prompt: 'Say hello, then claim a task.', auto_claim: true, in_tab: true })),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        turn(call('read_inbox', {})),
        say('carol is lost; #1 is back on the board.'),
      ],
      {},
      { runtime: { clock, workspace: isolatedTeammateWorkspace, releaseAfterMs: 1_000, heartbeatMs: 100, missedBeats: 3 } },
    );
    const b = await teamSetup([], { carol: [turn(call('send_message', { to: 'lead', body: 'hello from tab B' })), say('Waiting.'), say('On #1.')] }, { runtime: { clock, hostsLead: false, heartbeatMs: 100 } });
    const ta = tapped(channel);
    const tb = tapped(channel);
    a.team.attachTransport(ta.transport, 'A');
    b.team.attachTransport(tb.transport, 'B');

    // Tab B runs carol; when her claimed turn ends it crashes: no bye, no more beats.
    let idles = 0;
    let crashedAt = -1;
    const closeB = new AbortController();
    void drainAll(teammateTabRun(b.team, 'carol', { clock, signal: closeB.signal }), (e) => {
      if (e.type === 'agent.state' && e.name === 'carol' && e.from === 'working' && e.to === 'idle' && ++idles === 2) {
        tb.crash();
        crashedAt = clock.now();
      }
    });

    let finished = false;
    const run = drainAll(withTeamEnd(agentLoop(a.input, a.deps), a.team, { clock })).finally(() => (finished = true));
    // Time moves only once everything posted so far has been heard on the other side.
    while (!finished) {
      await turnOfTheLoop();
      // A crashed tab hears nothing more; what it posted before has arrived.
      const delivered = tb.tap.posted === ta.tap.heard && (tb.tap.dead || ta.tap.posted === tb.tap.heard);
      if (delivered && clock.pending > 0) clock.runNext();
    }
    const events = await run;
    closeB.abort();
    ta.transport.close();

    // Before the crash carol was alive and heard: her mail crossed and her claim was decided here.
    expect(events.find((e) => e.type === 'task.claimed')).toMatchObject({ owner: 'carol', taskId: '1' });
    const lost = events.find((e): e is Extract<TraceEvent, { type: 'teammate.lost' }> => e.type === 'teammate.lost');
    expect(lost).toMatchObject({ name: 'carol', tab: 'B', everyMs: 100, missedBeats: 3, agentId: 'teammate-carol' });
    expect(lost!.silentMs).toBeGreaterThanOrEqual(300);
    expect(lost!.ts - crashedAt).toBeLessThanOrEqual(400);
    const states = events.filter((e): e is Extract<TraceEvent, { type: 'agent.state' }> => e.type === 'agent.state' && e.name === 'carol');
    expect(states.at(-1)).toMatchObject({ to: 'gone', why: expect.stringContaining('stopped answering: no heartbeat for') });
    // The lead's wait ended with a message saying so; then the release came after its timeout.
    const reads = events.filter((e): e is Extract<TraceEvent, { type: 'tool.result' }> => e.type === 'tool.result' && e.name === 'read_inbox');
    expect(reads.map((r) => r.content).join('\n')).toContain("carol's tab (B) stopped answering");
    const released = events.find((e) => e.type === 'task.released');
    expect(released).toMatchObject({ owner: 'carol', taskIds: ['1'], afterMs: 1_000 });
    expect(released!.ts - lost!.ts).toBeGreaterThanOrEqual(1_000);
    expect(deriveTeam(events)!.lanes.find((l) => l.name === 'carol')).toMatchObject({ state: 'gone', presence: 'lost', tab: 'B' });
    expect((await readTasks(a.deps.sandbox.fs, a.deps.sandbox.workdir)).tasks[0]).toMatchObject({ status: 'pending' });
    expect(events.find((e) => e.type === 'team.ended')).toMatchObject({ teammates: [{ name: 'carol', state: 'gone' }] });
  });

  it('a tab that beats on is never lost, however long the lead waits', async () => {
    const channel = `test-heartbeat-alive-${Math.random()}`;
    const clock = new ManualClock();
    const a = await teamSetup([turn(call('spawn_teammate', { name: 'carol', prompt: 'Wait for me.', in_tab: true })), turn(call('read_inbox', {})), say('ok')], {}, {
      runtime: { clock, workspace: isolatedTeammateWorkspace, heartbeatMs: 100, missedBeats: 3 },
    });
    const b = await teamSetup([], { carol: [say('Waiting for the lead.')] }, { runtime: { clock, hostsLead: false, heartbeatMs: 100 } });
    const ta = tapped(channel);
    const tb = tapped(channel);
    a.team.attachTransport(ta.transport, 'A');
    b.team.attachTransport(tb.transport, 'B');
    const closeB = new AbortController();
    const serve = drainAll(teammateTabRun(b.team, 'carol', { clock, signal: closeB.signal }));
    let finished = false;
    const run = drainAll(withTeamEnd(agentLoop(a.input, a.deps), a.team, { clock })).finally(() => (finished = true));
    // 50 beats' worth of waiting: carol idles, the lead waits in read_inbox, nobody is lost.
    while (!finished && clock.now() < 5_000) {
      await turnOfTheLoop();
      if (ta.tap.posted === tb.tap.heard && tb.tap.posted === ta.tap.heard && clock.pending > 0) clock.runNext();
    }
    expect(finished).toBe(false);
    expect(a.team.members.get('carol')!.state).toBe('idle');
    // Then B closes cleanly: its bye ends it at once, no heartbeat needed.
    b.team.detachTransport();
    closeB.abort();
    while (!finished) {
      await turnOfTheLoop();
      if (clock.pending > 0 && tb.tap.posted === ta.tap.heard) clock.runNext();
    }
    const events = await run;
    await serve;
    expect(events.some((e) => e.type === 'teammate.lost')).toBe(false);
    expect(a.team.members.get('carol')!.lastWhy).toContain('its tab (B) closed');
    ta.transport.close();
  });
});

describe('the team’s cross-tab events as breakpoints', () => {
  it('are offered with the other event kinds, explained, and stop a Continue', async () => {
    for (const t of ['teammate.joined', 'teammate.join_timeout', 'teammate.lost', 'team.ended'] as const) {
      expect(EVENT_KINDS).toContain(t);
      expect(EVENT_EXPLANATIONS[t].lesson).toBeTruthy();
    }
    const a = await teamSetup([turn(call('spawn_teammate', { name: 'carol', prompt: 'x', in_tab: true })), turn(call('read_inbox', {})), say('ok')], {}, {
      runtime: { workspace: isolatedTeammateWorkspace, joinTimeoutMs: 1_000 },
    });
    a.team.attachTransport(broadcastTransport(`test-bp-${Math.random()}`), 'A');
    const events = await drainAll(withTeamEnd(agentLoop(a.input, a.deps), a.team, { clock: a.clock }));
    a.team.detachTransport();
    let bp = toggleBreakpoint(emptyBreakpoints(), 'event', 'teammate.join_timeout');
    bp = toggleBreakpoint(bp, 'event', 'team.ended');
    const hits = events.filter((e) => matchBreakpoint(bp, e));
    expect(hits.map((e) => e.type)).toEqual(['teammate.join_timeout', 'team.ended']);
    expect(matchBreakpoint(bp, hits[0]!)).toMatchObject({ kind: 'event', value: 'teammate.join_timeout', label: 'event teammate.join_timeout' });
  });
});
