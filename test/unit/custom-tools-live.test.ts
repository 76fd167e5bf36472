/**
 * Live registration: a custom tool saved while a run works joins the run's *next* request
 * (`LoopInput.toolPool`, re-read per request), with a `tools.changed` event, and the permission
 * pipeline and hooks judge it at once. Scripted model and the real SDK against the fake server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import type { ModelClient } from '../../src/harness/ports.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { parseCustomTool, type CustomToolDefinition } from '../../src/harness/tools/custom/index.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import type { Scenario } from '../../src/scenarios/schema.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { decisions, results, scenarioWith, shoutTool, wcTool } from './custom-tools-fixture.ts';

const def = (input: typeof shoutTool): CustomToolDefinition => {
  const r = parseCustomTool(input);
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.tool;
};

/** Turn 1 reads a file; turn 2 calls `shout`; turn 3 ends. */
const turns = [
  { content: [{ type: 'tool_use' as const, name: 'read', input: { path: 'a.txt' } }] },
  { content: [{ type: 'tool_use' as const, name: 'shout', input: { text: 'hi' } }] },
  { content: [{ type: 'text' as const, text: 'done' }] },
];

/**
 * Runs `scenario` with a live custom-tool list; `edit` is called once, right after the first
 * `model.request` event has been pulled — while the run works, before its second request.
 */
async function runEditingMidRun(scenario: Scenario, edit: (defs: CustomToolDefinition[]) => CustomToolDefinition[], model?: ModelClient) {
  const sandbox = await createJustBashSandbox();
  let defs: CustomToolDefinition[] = [...(scenario.settings.customTools ?? [])];
  const { input, deps } = await prepareRun({
    scenario,
    sandbox,
    clock: new FakeClock(),
    ids: new SequentialIds(),
    trusted: true,
    toolRunner: createNodeToolRunner(),
    liveCustomTools: () => defs,
    ...(model ? { model, modelId: 'claude-test' } : {}),
  });
  const events: TraceEvent[] = [];
  const gen = agentLoop(input, deps);
  let edited = false;
  for (let r = await gen.next(); !r.done; r = await gen.next()) {
    events.push(r.value);
    if (!edited && r.value.type === 'model.request') {
      edited = true;
      defs = edit(defs);
    }
  }
  return { events, file: (p: string) => sandbox.fs.readFile(`/home/project/${p}`) };
}

const requests = (events: TraceEvent[]) => events.flatMap((e) => (e.type === 'model.request' ? [(e.request.tools ?? []).map((t) => t.name)] : []));

describe('a custom tool saved mid-run', () => {
  it('is not in request N, is in request N+1, and runs under the rules at once', async () => {
    const scenario = scenarioWith(turns, { permissions: { allow: ['shout'] } }, { 'a.txt': 'x\n' });
    const { events, file } = await runEditingMidRun(scenario, (d) => [...d, def(shoutTool)]);
    const [first, second] = requests(events);
    expect(first).not.toContain('shout');
    expect(second).toContain('shout');
    const changed = events.filter((e) => e.type === 'tools.changed');
    expect(changed).toEqual([expect.objectContaining({ added: ['shout'], removed: [], changed: [], visible: expect.arrayContaining(['shout', 'read']) })]);
    // Announced before the request that carries it.
    expect(events.indexOf(changed[0]!)).toBeLessThan(events.findLastIndex((e) => e.type === 'model.request'));
    expect(decisions(events).find((d) => d.name === 'shout')).toMatchObject({ decision: 'allow', stage: 'rules' });
    expect(results(events).find((r) => r.name === 'shout')).toMatchObject({ content: 'HI!', isError: false });
    expect(await file('shout.txt')).toBe('HI!');
    // The explain panel reads the change from the event itself.
    expect(explainEvent(changed[0]!).why).toMatch(/added `shout`.*next request offers/);
  });

  it('PreToolUse hooks match it at once; a bare deny hides it from the next request', async () => {
    const hooks = { PreToolUse: [{ matcher: 'shout', hooks: [{ type: 'command' as const, command: "echo 'no shouting' >&2; exit 2" }] }] };
    const hooked = await runEditingMidRun(scenarioWith(turns, { permissions: { allow: ['shout'] }, hooks }, { 'a.txt': 'x\n' }), (d) => [...d, def(shoutTool)]);
    expect(decisions(hooked.events).find((d) => d.name === 'shout')).toMatchObject({ decision: 'deny', stage: 'hooks' });
    const denied = await runEditingMidRun(scenarioWith(turns, { permissions: { deny: ['shout'] } }, { 'a.txt': 'x\n' }), (d) => [...d, def(shoutTool)]);
    expect(requests(denied.events)[1]).not.toContain('shout');
    expect(denied.events.find((e) => e.type === 'tools.changed')).toMatchObject({ added: ['shout'], hidden: [expect.objectContaining({ name: 'shout' })] });
  });

  it('an edit or a delete mid-run is announced too; an unchanged pool announces nothing and sends the same tools', async () => {
    const start = scenarioWith(turns, { customTools: [shoutTool, wcTool] }, { 'a.txt': 'x\n' });
    const edited = await runEditingMidRun(start, (d) => d.map((t) => (t.name === 'word_count' ? { ...t, description: 'Counts words.' } : t)).filter((t) => t.name !== 'shout'));
    expect(edited.events.find((e) => e.type === 'tools.changed')).toMatchObject({ added: [], removed: ['shout'], changed: ['word_count'] });
    expect(requests(edited.events)[1]).not.toContain('shout');
    expect(results(edited.events).find((r) => r.name === 'shout')).toMatchObject({ isError: true });
    const same = await runEditingMidRun(start, (d) => d.map((t) => ({ ...t })));
    expect(same.events.some((e) => e.type === 'tools.changed')).toBe(false);
    const [a, b] = requests(same.events);
    expect(b).toEqual(a);
    expect(a).toEqual(expect.arrayContaining(['shout', 'word_count']));
  });
});

describe('live registration on the wire', () => {
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    server = await startFakeAnthropicServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('the SDK request body of the next call carries the tool saved mid-run', async () => {
    server.setTurns(turns);
    const model = createAnthropicClient({ apiKey: 'sk-test', baseURL: server.url });
    const { events } = await runEditingMidRun(scenarioWith([{ content: [] }], { permissions: { allow: ['shout'] } }, { 'a.txt': 'x\n' }), (d) => [...d, def(shoutTool)], model);
    const bodies = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages').map((r) => r.body as { tools: { name: string; description: string; input_schema: unknown }[] });
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    expect(bodies[0]!.tools.map((t) => t.name)).not.toContain('shout');
    expect(bodies[1]!.tools.find((t) => t.name === 'shout')).toEqual({ name: 'shout', description: shoutTool.description, input_schema: shoutTool.inputSchema });
    expect(results(events).find((r) => r.name === 'shout')).toMatchObject({ content: 'HI!' });
  });
});
