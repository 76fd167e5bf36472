/**
 * Continuing a subagent by its id (seed 002 §6; Claude Code's Task tool `resume`): the parent sends
 * a follow-up to a child that finished, and the same agent goes on with its own history — same id,
 * same model client, its earlier messages plus the follow-up. An unknown id is a clear tool error.
 */
import { describe, expect, it } from 'vitest';
import { checkTranscript, textOf } from '../../src/harness/index.ts';
import { agentCall, agentSetup, historyOf, run, say } from './agents-fixture.ts';
import { ofType } from '../helpers/events.ts';

const resumeCall = (resume: string, prompt: string) => ({ type: 'tool_use' as const, name: 'agent', input: { description: 'follow up', prompt, resume } });

describe('continuing a subagent', () => {
  it('a follow-up with resume runs the same agent on its own history; an unknown id is a tool error', async () => {
    const s = await agentSetup(
      [
        { content: [agentCall('count the files', 'How many files are there? Remember their names.')] },
        { content: [resumeCall('agent-general-purpose_0001', 'Which of them is larger?')] },
        { content: [resumeCall('agent-nope', 'Hello?')] },
        say('Done.'),
      ],
      {
        files: { 'a.txt': 'aaaaaaaa', 'b.txt': 'b' },
        agents: {
          'count the files': [
            { content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' } }] },
            say('2 files: a.txt and b.txt.'),
            // Its next turn answers the follow-up: only reachable if the same agent goes on.
            { content: [{ type: 'tool_use', name: 'bash', input: { command: 'wc -c a.txt b.txt' } }] },
            say('a.txt is larger (8 bytes).'),
          ],
        },
      },
    );
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');

    // Two starts of one agent: the second says it is a continuation.
    const starts = ofType(events, 'subagent.start');
    expect(starts.map((e) => e.childAgentId)).toEqual(['agent-general-purpose_0001', 'agent-general-purpose_0001']);
    expect(starts[0]!.resumed).toBeUndefined();
    expect(starts[1]!.resumed).toEqual({ priorMessages: 4, runs: 1 });
    expect(ofType(events, 'subagent.stop').map((e) => e.finalText)).toEqual(['2 files: a.txt and b.txt.', 'a.txt is larger (8 bytes).']);

    // The continued agent's first request holds its whole earlier history, then the follow-up.
    const childRequests = ofType(events, 'model.request', 'agent-general-purpose_0001');
    expect(childRequests).toHaveLength(4);
    const followUp = childRequests[2]!.request.messages;
    expect(followUp).toHaveLength(5);
    expect(textOf(followUp[0]!)).toContain('How many files are there?');
    expect(textOf(followUp[3]!)).toBe('2 files: a.txt and b.txt.');
    expect(textOf(followUp[4]!)).toBe('Which of them is larger?');
    expect(checkTranscript(historyOf(events, 'agent-general-purpose_0001'))).toEqual([]);

    // The parent gets the follow-up's answer; the unknown id is refused, naming who can be continued.
    const results = ofType(events, 'tool.result', 'main').filter((r) => r.name === 'agent');
    expect(results[1]!.isError).toBe(false);
    expect(results[1]!.content).toContain('a.txt is larger (8 bytes).');
    expect(results[1]!.content).toContain('agentId: agent-general-purpose_0001');
    expect(results[2]!.isError).toBe(true);
    expect(results[2]!.content).toContain('There is no agent "agent-nope" to continue');
    expect(results[2]!.content).toContain('agent-general-purpose_0001');
    expect(starts).toHaveLength(2);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('before any agent finished there is nothing to continue, and the tool says so', async () => {
    const s = await agentSetup([{ content: [resumeCall('agent-general-purpose_0001', 'Go on.')] }, say('ok')]);
    const { events } = await run(s);
    const r = ofType(events, 'tool.result').find((e) => e.name === 'agent')!;
    expect(r.isError).toBe(true);
    expect(r.content).toContain('No agent has finished in this run yet');
    expect(ofType(events, 'subagent.start')).toHaveLength(0);
  });

  it('the schema the model sees has Claude Code\'s resume parameter', async () => {
    const s = await agentSetup([say('ok')]);
    const agent = s.input.tools.find((t) => t.name === 'agent')!;
    const props = (agent.inputJsonSchema as unknown as { properties: Record<string, { type?: string }> }).properties;
    expect(props.resume?.type).toBe('string');
    expect(agent.description).toContain('resume');
  });
});
