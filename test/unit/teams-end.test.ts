/**
 * The team ends with the lead's run (issue 13): a teammate still working gets the s10 shutdown
 * request and finishes its turn first; one that ignores it is stopped after the visible timeout;
 * an idle one is stopped at once. Every teammate ends final with a valid transcript, and every
 * isolated copy is offered back (merged or refused) and removed — none left under `/.ws/`.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, checkTranscript, type TraceEvent } from '../../src/harness/index.ts';
import { isolatedTeammateWorkspace, withTeamEnd } from '../../src/harness/agents/teams/index.ts';
import { call, say, teamSetup, turn } from './teams-fixture.ts';
import { eventsOf } from '../helpers/events.ts';

const bash = (n: number) => turn(call('bash', { command: `echo step ${n}` }));

const drain = (gen: AsyncGenerator<TraceEvent, unknown>) => eventsOf(gen);

describe('the end of a run ends its team', () => {
  it('asks working teammates to shut down (timeout visible), stops idle ones, offers every copy back', async () => {
    const s = await teamSetup(
      [
        turn(
          call('spawn_teammate', { name: 'alice', prompt: 'Write a.txt.', isolation: 'overlay' }),
          call('spawn_teammate', { name: 'bob', prompt: 'Keep busy.' }),
          call('spawn_teammate', { name: 'cy', prompt: 'Keep busy.' }),
        ),
        turn(call('read_inbox', {})),
        say('Done for today.'),
      ],
      {
        alice: [turn(call('write', { file_path: '/home/project/a.txt', content: 'a\n' })), turn(call('send_message', { to: 'lead', body: 'a.txt written' })), say('Idle now.')],
        bob: [bash(1), bash(2), bash(3), bash(4), bash(5), say('Turn over.'), turn(call('send_message', { to: 'lead', type: 'shutdown_response', request_id: 'req-1', approve: true, body: 'Stopping.' })), say('Bye.')],
        cy: [bash(1), bash(2), bash(3), bash(4), bash(5), bash(6), say('Turn over.'), say('Not answering.')],
      },
      { runtime: { workspace: isolatedTeammateWorkspace } },
    );
    const events = await drain(withTeamEnd(agentLoop(s.input, s.deps), s.team, { clock: s.clock, timeoutMs: 2_000 }));

    // The run's end still closes the stream; the team's end comes just before it.
    expect(events.at(-1)).toMatchObject({ type: 'run.end', agentId: 'main', reason: 'completed' });
    const endedAt = events.findIndex((e) => e.type === 'team.ended');
    expect(endedAt).toBe(events.length - 2);
    const leadSeqs = events.filter((e) => e.agentId === 'main').map((e) => e.seq);
    expect(leadSeqs).toEqual([...leadSeqs].sort((a, b) => a - b));

    // Working at the end: asked with the protocol. bob approved after his turn; cy never answered.
    const requests = events.filter((e): e is Extract<TraceEvent, { type: 'mailbox.sent' }> => e.type === 'mailbox.sent' && e.message.type === 'shutdown_request');
    expect(requests.map((e) => e.message.to).sort()).toEqual(['bob', 'cy']);
    expect(events.find((e) => e.type === 'protocol.timeout')).toMatchObject({ from: 'lead', to: 'cy', request: 'shutdown_request' });
    const ended = events[endedAt] as Extract<TraceEvent, { type: 'team.ended' }>;
    expect(ended.unanswered).toEqual(['cy']);
    expect(Object.fromEntries(ended.teammates.map((t) => [t.name, t.state]))).toEqual({ alice: 'shut_down', bob: 'shut_down', cy: 'shut_down' });
    expect(ended.teammates.find((t) => t.name === 'bob')!.why).toBe('it approved the shutdown request');
    expect(ended.teammates.find((t) => t.name === 'alice')!.why).toBe('the run ended');

    // Transcripts stay valid: every tool_use answered, in every teammate's history and the lead's.
    for (const m of s.team.members.values()) expect(checkTranscript(m.history), m.name).toEqual([]);

    // alice's isolated copy was offered back and merged; no copy is left under /.ws/.
    expect(ended.workspaces).toEqual([{ name: 'alice', changed: 1, merged: ['a.txt'], conflicts: [] }]);
    expect(await s.deps.sandbox.fs.readFile('/home/project/a.txt')).toBe('a\n');
    const created = events.filter((e) => e.type === 'workspace.created').map((e) => (e as { workspaceId: string }).workspaceId);
    const offered = events.filter((e) => e.type === 'workspace.changes').map((e) => (e as { workspaceId: string }).workspaceId);
    expect(created).toEqual(['teammate-alice']);
    expect(offered).toEqual(created);
    expect(await s.deps.sandbox.fs.list('/.ws').catch(() => [])).toEqual([]);
  });

  it('a stopped run skips the handshake: every teammate is stopped at once', async () => {
    const abort = new AbortController();
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'bob', prompt: 'Keep busy.' })), turn(call('read_inbox', {})), say('never')],
      { bob: [bash(1), bash(2), bash(3), say('x')] },
      { signal: abort.signal },
    );
    const gen = withTeamEnd(agentLoop(s.input, s.deps), s.team, { clock: s.clock });
    const events: TraceEvent[] = [];
    for (let step = await gen.next(); !step.done; step = await gen.next()) {
      events.push(step.value);
      // Stop mid-way through bob's first turn.
      if (step.value.type === 'tool.started' && step.value.agentId === 'teammate-bob') abort.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'run.end', reason: 'aborted' });
    expect(events.some((e) => e.type === 'mailbox.sent' && e.message.type === 'shutdown_request')).toBe(false);
    expect(events.find((e) => e.type === 'team.ended')).toMatchObject({ teammates: [{ name: 'bob', state: 'shut_down', why: expect.stringMatching(/stopped/) }] });
    expect(checkTranscript(s.team.members.get('bob')!.history)).toEqual([]);
  });
});
