/**
 * The context pipeline as the loop drives it: the five layers before every call, cache stats
 * after, committed rewrites adopted, the reactive compact, and compaction hooks.
 */
import { describe, expect, it } from 'vitest';
import { blocksOf, FakeClock, SequentialIds, WORKDIR, type Message } from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

async function runScenario(id: string) {
  const scenario = findBuiltinScenario(id)!;
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  const client = deps.model as ReturnType<typeof createScriptedClient>;
  return { ...(await drain(input, deps)), client };
}

/** Every request the model received must be valid for the API. */
function expectValidRequests(requests: readonly { messages: Message[] }[]) {
  for (const r of requests) expect(checkTranscript(r.messages, { complete: false })).toEqual([]);
}

describe('context pipeline in the loop', () => {
  it('runs the five layers in order before every call, then reports cache stats', async () => {
    const { events, client } = await runScenario('fix-a-bug');
    const calls = ofType(events, 'model.request').length;
    const layers = ofType(events, 'compaction.layer');
    expect(layers).toHaveLength(calls * 5);
    expect(layers.slice(0, 5).map((l) => l.layer)).toEqual(['budget', 'snip', 'microcompact', 'collapse', 'auto_compact']);
    expect(ofType(events, 'cache.stats')).toHaveLength(calls);
    // the simulated cache: the first call writes, later calls read the prefix back
    const stats = ofType(events, 'cache.stats');
    expect(stats[0]!.creation).toBeGreaterThan(0);
    expect(stats.at(-1)!.read).toBeGreaterThan(0);
    expect(stats.every((s) => s.breakDiff === null)).toBe(true);
    // breakpoints are placed and the request is valid
    expect(JSON.stringify(client.requests[1])).toContain('"cache_control"');
    expectValidRequests(client.requests);
  });

  it('budget reduction replaces a large result by a reference that read_tool_result reads back', async () => {
    const { events, client, result } = await runScenario('budget-reduction');
    expect(result.reason).toBe('completed');
    const second = JSON.stringify(client.requests[1]!.messages);
    expect(second).toContain('stored as ref');
    const readBack = ofType(events, 'tool.result').find((r) => r.name === 'read_tool_result')!;
    expect(readBack.isError).toBe(false);
    expect(readBack.content).toContain('api request 0 handled');
    expect(ofType(events, 'history.rewritten')).toHaveLength(1);
    expect(Object.keys(result.contextState.stored)).toEqual(['toolu_scripted_1']);
    expectValidRequests(client.requests);
  });

  it('auto-compact rewrites the history at the threshold and the run goes on', async () => {
    const { events, client, result } = await runScenario('auto-compact');
    const fired = ofType(events, 'compaction.layer').filter((l) => l.fired);
    expect(fired.map((l) => l.layer)).toEqual(['auto_compact']);
    const rewritten = ofType(events, 'history.rewritten')[0]!;
    expect(rewritten.messages.length).toBeLessThan(rewritten.messagesBefore);
    expect(result.reason).toBe('completed');
    expect(result.contextState.compactions).toHaveLength(1);
    expectValidRequests(client.requests);
  });

  it('cache-aware microcompact defers while the cache is healthy and applies under pressure', async () => {
    const { events } = await runScenario('microcompact-cache-aware');
    const mc = ofType(events, 'compaction.layer').filter((l) => l.layer === 'microcompact');
    const deferred = mc.filter((l) => /queued and dropped/.test(l.reason));
    expect(deferred.length).toBeGreaterThan(0);
    const applied = mc.filter((l) => l.fired);
    expect(applied).toHaveLength(1);
    // the only cache break is the call where the trims were applied
    const breaks = ofType(events, 'cache.stats').filter((s) => s.breakDiff !== null);
    expect(breaks.map((b) => b.turn)).toEqual([applied[0]!.turn]);
  });

  it('without the cache-aware path every trim breaks the cache, and the diff says where', async () => {
    const { events } = await runScenario('cache-breakage');
    const breaks = ofType(events, 'cache.stats').filter((s) => s.breakDiff !== null);
    expect(breaks.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(breaks[0]!.breakDiff)).toMatch(/message/);
  });

  it('collapse projects without touching the stored history', async () => {
    const { events, result } = await runScenario('context-collapse');
    const collapse = ofType(events, 'compaction.layer').filter((l) => l.layer === 'collapse' && l.fired);
    expect(collapse.length).toBeGreaterThan(0);
    expect(collapse.every((l) => !l.committed)).toBe(true);
    expect(ofType(events, 'history.rewritten')).toHaveLength(0);
    // the truth still has every tool result verbatim
    const results = result.messages.flatMap((m) => blocksOf(m)).filter((b) => b.type === 'tool_result');
    expect(results).toHaveLength(6);
    const assembled = ofType(events, 'context.assembled').at(-1)!;
    expect(assembled.total).toBeLessThan(assembled.truthTotal!);
  });

  it('"prompt is too long" compacts once and retries the same turn', async () => {
    const big = 'x'.repeat(4000);
    const s = await setup([
      { content: [{ type: 'tool_use', name: 'bash', input: { command: `echo ${big}` } }] },
      { fault: { kind: 'http', status: 400, errorType: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' } },
      { content: [{ type: 'text', text: 'fits now' }] },
    ]);
    const { events, result } = await drain(s.input, { ...s.deps, summarize: async () => ({ ok: true, summary: 'the user asked for a task; a long echo ran' }) });
    expect(transitions(events)).toEqual(['next_turn', 'reactive_compact_retry', 'completed']);
    expect(result.turns).toBe(2);
    expect(JSON.stringify(s.client.requests[2]!.messages)).toContain('a long echo ran');
    expectValidRequests(s.client.requests);
  });

  it('a second "prompt is too long" in the same turn ends the run', async () => {
    const tooLong = { fault: { kind: 'http' as const, status: 400, message: 'prompt is too long' } };
    const s = await setup([{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi' } }] }, tooLong, tooLong]);
    const { events, result } = await drain(s.input, { ...s.deps, summarize: async () => ({ ok: true, summary: 'summary' }) });
    expect(transitions(events)).toEqual(['next_turn', 'reactive_compact_retry', 'model_error']);
    expect(result.error?.kind).toBe('prompt_too_long');
  });

  it('PreCompact and PostCompact hooks fire around an auto-compact', async () => {
    const scenario = findBuiltinScenario('auto-compact')!;
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, {
      ...deps,
      hooks: {
        config: {
          PreCompact: [{ hooks: [{ type: 'command', command: 'cat > /home/project/precompact.json' }] }],
          PostCompact: [{ hooks: [{ type: 'command', command: 'echo compacted >> /home/project/compactions.txt' }] }],
        },
        session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' },
      },
    });
    const runs = ofType(events, 'hook.run').map((h) => h.event);
    expect(runs).toEqual(['PreCompact', 'PostCompact']);
    expect(JSON.parse(await sandbox.fs.readFile('/home/project/precompact.json'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'auto' });
    expect(await sandbox.fs.readFile('/home/project/compactions.txt')).toBe('compacted\n');
  });

  it('carries the context state into the next run of the conversation', async () => {
    const first = await runScenario('budget-reduction');
    const s = await setup([{ content: [{ type: 'tool_use', name: 'read_tool_result', input: { tool_use_id: 'toolu_scripted_1', limit: 100 } }] }, { content: [{ type: 'text', text: 'ok' }] }], {
      input: { messages: [...first.result.messages, { role: 'user', content: 'show the start again' }], contextState: first.result.contextState },
    });
    const { events } = await drain(s.input, s.deps);
    expect(ofType(events, 'tool.result')[0]!.content).toContain('api request 0');
  });
});
