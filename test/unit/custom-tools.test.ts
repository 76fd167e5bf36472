/**
 * Custom tools: definitions checked with errors that name the field, JS (worker + message-proxied
 * file API) and shell implementations, timeouts, registration on the wire, the permission
 * pipeline and hooks applied like built-ins, trust gating, and the link round trip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKDIR } from '../../src/harness/ports.ts';
import { customTool, parseCustomTool, withExtraTools } from '../../src/harness/tools/custom/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';
import { FileState } from '../../src/harness/tools/file-state.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { bashTool } from '../../src/harness/tools/index.ts';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { decodeScenarioLink, encodeScenarioLink } from '../../src/scenarios/codec.ts';
import { scenarioActionableContent } from '../../src/scenarios/actionable.ts';
import { hasActionableContent } from '../../src/harness/trust/trust.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { decisions, results, runScenario, scenarioWith, shoutTool, wcTool } from './custom-tools-fixture.ts';

const callShout = (text: unknown) => [{ content: [{ type: 'tool_use' as const, name: 'shout', input: { text } }] }, { content: [{ type: 'text' as const, text: 'done' }] }];

describe('custom tool definitions', () => {
  it('names the field of every problem, down to the schema path', () => {
    const r = parseCustomTool({
      name: 'bad name!',
      description: '',
      inputSchema: { type: 'object', properties: { city: { type: 'strng' }, days: { type: 'integer', minimum: 'one' } }, required: ['city', 'country'] },
      implementation: { kind: 'js', source: '' },
    });
    expect(r.ok).toBe(false);
    const errors = r.ok ? [] : r.errors;
    expect(errors.some((e) => e.startsWith('name:'))).toBe(true);
    expect(errors.some((e) => e.startsWith('description:'))).toBe(true);
    expect(errors).toContain('inputSchema.properties.city.type: "strng" is not a JSON Schema type (string, number, integer, boolean, object, array, null)');
    expect(errors).toContain('inputSchema.properties.days.minimum: must be a number');
    expect(errors).toContain('inputSchema.required.1: "country" is required but not declared in properties');
    expect(errors.some((e) => e.startsWith('implementation.source:'))).toBe(true);
  });

  it('refuses built-in and MCP names and a non-object root', () => {
    for (const name of ['bash', 'mcp__srv__x']) expect(parseCustomTool({ ...shoutTool, name }).ok).toBe(false);
    const r = parseCustomTool({ ...shoutTool, inputSchema: { type: 'string' } });
    expect(r.ok ? [] : r.errors).toContain('inputSchema.type: the input of a tool is always an object: set "type": "object"');
  });

  it('fails closed: not read-only, not concurrency-safe, not destructive unless said', () => {
    const r = parseCustomTool(shoutTool);
    if (!r.ok) throw new Error(r.errors.join());
    expect([r.tool.readOnly, r.tool.concurrencySafe, r.tool.destructive]).toEqual([false, false, false]);
    const tool = customTool(r.tool);
    expect(tool.isReadOnly({})).toBe(false);
    expect(tool.inputJsonSchema).toMatchObject({ type: 'object', required: ['text'] });
  });

  it('the extra-tools seam never replaces a tool already in the pool', () => {
    const r = parseCustomTool({ ...wcTool, name: 'word_count' });
    if (!r.ok) throw new Error();
    const dup = { ...customTool(r.tool), name: 'bash' };
    const pool = withExtraTools([bashTool()], [{ label: 'custom tools', tools: [dup, customTool(r.tool)] }]);
    expect(pool.tools.map((t) => t.name)).toEqual(['bash', 'word_count']);
    expect(pool.skipped).toEqual([{ name: 'bash', source: 'custom tools', reason: 'a tool called "bash" is already in the pool' }]);
  });
});

describe('implementations', () => {
  async function ctx() {
    const sandbox = await createJustBashSandbox({ files: { 'notes.txt': 'one two three\n' } });
    return { sandbox, cwd: WORKDIR, signal: new AbortController().signal, onOutput: () => {}, files: new FileState(), clock: new FakeClock(), ids: new SequentialIds(), agentId: 'main' };
  }
  const build = (over: object) => {
    const r = parseCustomTool({ ...shoutTool, ...over });
    if (!r.ok) throw new Error(r.errors.join('\n'));
    return customTool(r.tool, { runner: createNodeToolRunner() });
  };

  it('JS: gets the input and reads, writes and lists project files through the proxy', async () => {
    const c = await ctx();
    const tool = build({ implementation: { kind: 'js', source: "const t = await files.read('notes.txt'); await files.write('out/copy.txt', t.toUpperCase()); const l = await files.list('out'); return { words: t.split(/\\s+/).filter(Boolean).length, listed: l.map((e) => e.name), text: input.text };" } });
    const out = await tool.call({ text: 'hi' }, c);
    expect(out.isError).toBeFalsy();
    expect(JSON.parse(out.content)).toEqual({ words: 3, listed: ['copy.txt'], text: 'hi' });
    expect(await c.sandbox.fs.readFile(`${WORKDIR}/out/copy.txt`)).toBe('ONE TWO THREE\n');
  });

  it('JS: the file API stays inside the project, and a throw is a tool error', async () => {
    const c = await ctx();
    const out = await build({ implementation: { kind: 'js', source: "return await files.read('/home/user/.ssh/id_rsa');" } }).call({ text: 'x' }, c);
    expect(out).toEqual({ isError: true, content: expect.stringContaining('is outside the project') });
    const thrown = await build({ implementation: { kind: 'js', source: "console.log('about to fail'); throw new Error('no city given');" } }).call({ text: 'x' }, c);
    expect(thrown.isError).toBe(true);
    expect(thrown.content).toContain('Error: no city given');
    expect(thrown.content).toContain('about to fail');
  });

  it('JS: a busy loop is stopped by the timeout', async () => {
    const c = await ctx();
    const out = await build({ timeoutMs: 300, implementation: { kind: 'js', source: 'while (true) {}' } }).call({ text: 'x' }, c);
    expect(out).toEqual({ isError: true, content: 'The tool "shout" did not finish within 300 ms and was stopped.' });
  });

  it('shell: the input arrives as JSON on stdin, stdout is the result, a non-zero exit an error', async () => {
    const c = await ctx();
    const r = parseCustomTool(wcTool);
    if (!r.ok) throw new Error();
    const wc = customTool(r.tool);
    expect(await wc.call({ path: 'notes.txt' }, c)).toEqual({ content: '3\n' });
    const failing = build({ implementation: { kind: 'shell', command: 'cat > /dev/null; echo "no such city" >&2; exit 3' } });
    expect(await failing.call({ text: 'x' }, c)).toEqual({ isError: true, content: 'Exit code 3\nno such city' });
  });
});

describe('custom tools in a run', () => {
  let server: FakeAnthropicServer;
  beforeAll(async () => {
    server = await startFakeAnthropicServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('registration reaches the request on the wire, and the model\'s call runs', async () => {
    server.setTurns(callShout('hello'));
    const scenario = scenarioWith([{ content: [] }], { customTools: [shoutTool], permissions: { allow: ['shout'] } });
    const model = createAnthropicClient({ apiKey: 'sk-test', baseURL: server.url });
    const { events, files } = await runScenario(scenario, { model });
    const posts = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
    const tools = (posts[0]!.body as { tools: { name: string; description: string; input_schema: unknown }[] }).tools;
    const shout = tools.find((t) => t.name === 'shout');
    expect(shout).toEqual({ name: 'shout', description: shoutTool.description, input_schema: shoutTool.inputSchema });
    expect(results(events)[0]).toMatchObject({ name: 'shout', content: 'HELLO!', isError: false });
    expect(await files('shout.txt')).toBe('HELLO!');
  });

  it('a malformed input is a tool error naming the field; the tool does not run', async () => {
    const { events } = await runScenario(scenarioWith(callShout(42), { customTools: [shoutTool], permissions: { allow: ['shout'] } }));
    expect(results(events)[0]).toMatchObject({ isError: true, content: expect.stringContaining('text: expected string') });
  });

  it('rules name custom tools: no rule asks (denied headless), an allow rule lets it run, a deny hides it', async () => {
    const none = await runScenario(scenarioWith(callShout('a'), { customTools: [shoutTool] }));
    expect(decisions(none.events)[0]).toMatchObject({ decision: 'deny', stage: 'prompt' });
    const allowed = await runScenario(scenarioWith(callShout('a'), { customTools: [shoutTool], permissions: { allow: ['shout(*)'] } }));
    expect(decisions(allowed.events)[0]).toMatchObject({ decision: 'allow', stage: 'rules' });
    const denied = await runScenario(scenarioWith(callShout('a'), { customTools: [shoutTool], permissions: { deny: ['shout'] } }));
    expect(denied.events.find((e) => e.type === 'permission.prefilter')).toMatchObject({ hidden: [expect.objectContaining({ name: 'shout' })] });
  });

  it('a read-only custom tool runs without asking in default mode', async () => {
    const turns = [{ content: [{ type: 'tool_use' as const, name: 'word_count', input: { path: 'a.txt' } }] }, { content: [{ type: 'text' as const, text: 'ok' }] }];
    const { events } = await runScenario(scenarioWith(turns, { customTools: [wcTool] }, { 'a.txt': 'x y\n' }));
    expect(decisions(events)[0]).toMatchObject({ decision: 'allow' });
    expect(results(events)[0]).toMatchObject({ content: '2\n', isError: false });
  });

  it('PreToolUse hooks match custom tools by name', async () => {
    const hooks = { PreToolUse: [{ matcher: 'shout', hooks: [{ type: 'command' as const, command: "echo 'no shouting here' >&2; exit 2" }] }] };
    const { events } = await runScenario(scenarioWith(callShout('a'), { customTools: [shoutTool], permissions: { allow: ['shout'] }, hooks }));
    expect(decisions(events)[0]).toMatchObject({ decision: 'deny', stage: 'hooks' });
    expect(results(events)[0]!.content).toContain('no shouting here');
  });

  it('trust gating: an untrusted document\'s tools are not offered and never run', async () => {
    const scenario = scenarioWith(callShout('a'), { customTools: [shoutTool], permissions: { allow: ['shout'] } });
    expect(hasActionableContent(scenarioActionableContent(scenario))).toBe(true);
    expect(scenarioActionableContent(scenario).tools).toEqual(['shout (js)']);
    const { events, files } = await runScenario(scenario, { trusted: false });
    expect(events.find((e) => e.type === 'run.start')).toMatchObject({ tools: expect.not.arrayContaining(['shout']) });
    expect(results(events)[0]).toMatchObject({ isError: true, content: expect.stringContaining('shout') });
    await expect(files('shout.txt')).rejects.toThrow();
  });

  it('survives the share-link round trip', () => {
    const scenario = scenarioWith(callShout('a'), { customTools: [shoutTool, wcTool] });
    const back = decodeScenarioLink(encodeScenarioLink(scenario));
    expect(back.ok && back.scenario.settings.customTools).toEqual(scenario.settings.customTools);
    expect(back.ok && back.scenario.settings.customTools?.[1]?.readOnly).toBe(true);
  });
});
