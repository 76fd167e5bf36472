/**
 * The team view and the stepper over a real team run (the built-in lesson, headless): lanes with
 * state, task and unread mail at every position of the log; arrows in time order; teammate lanes in
 * the event stream's agent tree; a `mailbox.*` breakpoint stops at every mailbox event and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { deriveTeam } from '../../src/ui/team/derive.ts';
import { summarizeTeamEvent } from '../../src/ui/team/summary.ts';
import { agentTree } from '../../src/ui/agents/lanes.ts';
import { emptyBreakpoints, matchBreakpoint, toggleBreakpoint } from '../../src/ui/stepper/breakpoints.ts';
import { summarize } from '../../src/ui/events/summary.ts';

async function log(id: string): Promise<TraceEvent[]> {
  const sandbox = await createJustBashSandbox();
  const { log } = await runLessonHeadless(builtinDocs.find((d) => d.id === id)!, { sandbox, clock: new FakeClock(), ids: new SequentialIds() });
  await sandbox.dispose();
  return log;
}

describe('the team view', () => {
  it('has nothing to show before a teammate exists', () => {
    expect(deriveTeam([])).toBeNull();
  });

  it('draws lanes, unread mail and arrows from the stream, at every step', async () => {
    const events = await log('team-split-tasks');
    const end = deriveTeam(events)!;
    expect(end.lanes.map((l) => l.name)).toEqual(['lead', 'alice', 'bob']);
    // Done when the lead's last turn began; the run's end shut the team down (team.ended).
    const ended = events.findIndex((e) => e.type === 'team.ended');
    expect(deriveTeam(events.slice(0, ended - 2))!.lanes.map((l) => l.state)).toEqual(['lead', 'done', 'done']);
    expect(end.lanes.map((l) => l.state)).toEqual(['lead', 'shut_down', 'shut_down']);
    expect(end.arrows.map((a) => `${a.from}>${a.to}`)).toEqual(['lead>alice', 'lead>bob', 'alice>lead', 'bob>lead', 'alice>lead']);
    // Arrows sit at their place in time.
    expect(end.arrows.map((a) => a.at)).toEqual([...end.arrows.map((a) => a.at)].sort((a, b) => a - b));

    // Just after the first report lands, the lead has unread mail and alice works on #1.
    const firstReport = events.findIndex((e) => e.type === 'mailbox.sent' && e.message.to === 'lead');
    const mid = deriveTeam(events.slice(0, firstReport + 1))!;
    expect(mid.lanes.find((l) => l.name === 'lead')!.unread).toBe(1);
    expect(mid.lanes.find((l) => l.name === 'alice')).toMatchObject({ state: 'working', taskId: '1' });
    // After the lead reads, its unread count is back to 0.
    const read = events.findIndex((e, i) => i > firstReport && e.type === 'mailbox.read' && e.reader === 'lead');
    expect(deriveTeam(events.slice(0, read + 1))!.lanes[0]!.unread).toBe(0);
  });

  it('marks a timed-out request on the requester’s lane', async () => {
    const team = deriveTeam(await log('team-shutdown'))!;
    expect(team.timeouts).toHaveLength(1);
    expect(team.arrows.filter((a) => a.from === 'team').map((a) => a.type)).toEqual(['request_timeout']);
    expect(team.lanes.find((l) => l.name === 'alice')!.state).toBe('shut_down');
  });

  it('gives teammates their own lanes in the event stream, and every team event a summary', async () => {
    const events = await log('team-claim-race');
    const tree = agentTree(events);
    expect(tree.get('teammate-ann')).toMatchObject({ depth: 1, label: 'teammate ann', parent: 'main' });
    for (const e of events) if (summarizeTeamEvent(e) !== null) expect(summarize(e).length).toBeGreaterThan(5);
  });
});

describe('a mailbox.* breakpoint', () => {
  it('stops at every mailbox event of every agent, and at nothing else', async () => {
    const events = await log('team-shutdown');
    const bp = toggleBreakpoint(emptyBreakpoints(), 'event', 'mailbox.*');
    const hits = events.filter((e) => matchBreakpoint(bp, e));
    expect(hits.length).toBeGreaterThan(5);
    expect(hits.every((e) => e.type.startsWith('mailbox.'))).toBe(true);
    expect(hits.length).toBe(events.filter((e) => e.type.startsWith('mailbox.')).length);
    expect(new Set(hits.map((e) => e.agentId))).toEqual(new Set(['main', 'teammate-alice', 'teammate-bob']));
    expect(matchBreakpoint(bp, hits[0]!)).toMatchObject({ kind: 'event', value: 'mailbox.*' });
  });
});
