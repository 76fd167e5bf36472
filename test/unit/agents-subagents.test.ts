/**
 * Subagents against the real loop, just-bash and scripted models: a child is a fresh loop that
 * sees only its prompt; the parent gets its final text and a trailer; parallel children run
 * together and answer in call order; abort leaves every transcript valid; definitions, the depth
 * limit, permissions and the SubagentStart / SubagentStop hooks.
 */
import { modelAliasesFromEnv, subagentModelId } from '../../src/harness/agents/subagents/model-alias.ts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentLoop, buildTool, checkTranscript, textOf, type TraceEvent } from '../../src/harness/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { parseHooksConfig } from '../../src/harness/hooks/index.ts';
import { usageTrailer } from '../../src/harness/agents/index.ts';
import { agentCall, agentSetup, historyOf, run, say } from './agents-fixture.ts';
import { barrierTool } from './loop-helpers.ts';
import { ofType } from '../helpers/events.ts';

const childIds = (events: TraceEvent[]) => [...new Set(events.filter((e) => e.agentId !== 'main').map((e) => e.agentId))];

describe('the agent tool', () => {
  it('runs a fresh loop that sees only its prompt, and hands back only its final text and a trailer', async () => {
    const s = await agentSetup(
      [
        { content: [{ type: 'text', text: 'Let me delegate.' }, agentCall('count the files', 'How many files are in the project? Answer with the number.')] },
        say('There are 2 files.'),
      ],
      {
        files: { 'a.txt': 'secret-parent-only', 'b.txt': 'b' },
        prompt: 'PARENT-PROMPT-MARKER: how many files?',
        agents: {
          'count the files': [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls | wc -l' } }] }, say('2 files: a.txt and b.txt.')],
        },
      },
    );
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const [child] = childIds(events);
    expect(child).toBe('agent-general-purpose_0001');

    // The child's first request: its own system prompt and nothing but the prompt.
    const childReq = ofType(events, 'model.request', child)[0]!.request;
    expect(childReq.messages).toHaveLength(1);
    expect(JSON.stringify(childReq.messages)).toContain('How many files are in the project?');
    expect(JSON.stringify(childReq)).not.toContain('PARENT-PROMPT-MARKER');
    expect(JSON.stringify(childReq)).not.toContain('Let me delegate');
    expect(childReq.system).not.toContain('main test agent');

    // Every child event carries its id and the parent's call; they sit between start and stop.
    const start = ofType(events, 'subagent.start')[0]!;
    const stop = ofType(events, 'subagent.stop')[0]!;
    const childEvents = events.filter((e) => e.agentId === child);
    expect(childEvents.every((e) => e.parentToolUseId === start.toolUseId)).toBe(true);
    expect(events.indexOf(childEvents[0]!)).toBeGreaterThan(events.indexOf(start));
    expect(events.indexOf(childEvents.at(-1)!)).toBeLessThan(events.indexOf(stop));
    expect(childEvents.map((e) => e.seq)).toEqual(childEvents.map((_, i) => i + 1));
    expect(stop).toMatchObject({ reason: 'completed', turns: 2, toolUses: 1, finalText: '2 files: a.txt and b.txt.' });

    // The parent's model sees the final text and the trailer, none of the child's tool calls.
    const parentResult = ofType(events, 'tool.result', 'main').find((r) => r.name === 'agent')!;
    expect(parentResult.isError).toBe(false);
    expect(parentResult.content).toContain('2 files: a.txt and b.txt.');
    expect(parentResult.content).toMatch(/<usage>turns: 2\ntotal_tokens: \d+\ntool_uses: 1\nduration_ms: \d+<\/usage>/);
    const second = JSON.stringify(s.client.requests[1]!.messages);
    expect(second).not.toContain('wc -l');
    expect(checkTranscript(result.messages)).toEqual([]);
    expect(checkTranscript(historyOf(events, child!))).toEqual([]);
  });

  it('runs several calls of one turn in parallel and returns their results in call order', async () => {
    const order: string[] = [];
    const probe = barrierTool(2, order);
    const s = await agentSetup(
      [{ content: [agentCall('first', 'Probe one.'), agentCall('second', 'Probe two.')] }, say('Both done.')],
      {
        extraTools: () => [probe],
        agents: {
          // The first child finishes after the second: completion order differs from call order.
          first: [{ content: [{ type: 'tool_use', name: 'probe', input: { label: 'one', finishAfter: ['two'] } }] }, say('one finished')],
          second: [{ content: [{ type: 'tool_use', name: 'probe', input: { label: 'two' } }] }, say('two finished')],
        },
      },
    );
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    // The barrier only fills when both children's probes are in flight at once.
    const probes = ofType(events, 'tool.result').filter((r) => r.name === 'probe');
    expect(probes.map((p) => p.content).sort()).toEqual(['one:met', 'two:met']);
    expect(order).toEqual(['two', 'one']);
    // Results in call order.
    const toolResults = result.messages[2]!.content as { type: string; content: string }[];
    expect(toolResults.map((b) => b.content.split('\n')[0])).toEqual(['one finished', 'two finished']);
    // Both children's events interleave in the one stream.
    const kids = childIds(events);
    expect(kids).toHaveLength(2);
    const firstStops = events.findIndex((e) => e.type === 'run.end' && e.agentId === kids[0]);
    const secondStarts = events.findIndex((e) => e.type === 'run.start' && e.agentId === kids[1]);
    expect(secondStarts).toBeLessThan(firstStops);
  });

  it('an unknown subagent_type is an error naming the agents that exist', async () => {
    const s = await agentSetup([{ content: [agentCall('x', 'do it', 'nope')] }, say('ok')], {
      files: { '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code\n---\nYou review.' },
    });
    const { events } = await run(s);
    const r = ofType(events, 'tool.result').find((e) => e.name === 'agent')!;
    expect(r.isError).toBe(true);
    expect(r.content).toContain('There is no agent type "nope"');
    expect(r.content).toContain('general-purpose, reviewer');
    expect(ofType(events, 'subagent.start')).toHaveLength(0);
  });

  it('a custom definition sets the system prompt, tools, turn limit and a narrower mode', async () => {
    const def = ['---', 'name: reader', 'description: Reads files and reports', 'tools: Read, Grep', 'permissionMode: plan', 'maxTurns: 2', '---', 'READER-SYSTEM-PROMPT'].join('\n');
    const s = await agentSetup([{ content: [agentCall('read it', 'Read a.txt', 'reader')] }, say('done')], {
      files: { '.claude/agents/reader.md': def, 'a.txt': 'alpha' },
      agents: { reader: [{ content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] }] },
    });
    const { events } = await run(s);
    const start = ofType(events, 'subagent.start')[0]!;
    expect(start).toMatchObject({ subagentType: 'reader', tools: ['read', 'grep'], maxTurns: 2, permissionMode: 'plan', depth: 1 });
    const child = start.childAgentId;
    expect(JSON.stringify(ofType(events, 'model.request', child)[0]!.request.system)).toBe(JSON.stringify([{ type: 'text', text: 'READER-SYSTEM-PROMPT', cache_control: { type: 'ephemeral' } }]));
    expect(ofType(events, 'run.end', child)[0]!.reason).toBe('max_turns');
    const r = ofType(events, 'tool.result', 'main').find((e) => e.name === 'agent')!;
    expect(r.isError).toBe(true);
    expect(r.content).toContain('stopped at its turn limit');
  });

  it('a definition cannot widen the parent mode', async () => {
    const def = '---\nname: yolo\ndescription: d\npermissionMode: bypassPermissions\n---\nbody';
    const s = await agentSetup([{ content: [agentCall('w', 'write', 'yolo')] }, say('done')], {
      files: { '.claude/agents/yolo.md': def },
      input: { permissions: { mode: 'default', rules: [], workdir: '/home/project' } },
      agents: { yolo: [{ content: [{ type: 'tool_use', name: 'write', input: { file_path: 'x.txt', content: 'x' } }] }, say('tried')] },
    });
    const { events } = await run(s);
    const start = ofType(events, 'subagent.start')[0]!;
    expect(start.permissionMode).toBe('default');
    expect(start.note).toContain('more permissive');
    // Headless (no prompter): the child's write needs a person, so it is denied.
    const w = ofType(events, 'tool.result', start.childAgentId).find((e) => e.name === 'write')!;
    expect(w.isError).toBe(true);
  });

  it('permission prompts a child raises reach the parent prompter labelled with the agent', async () => {
    const asked: { name: string; agent?: { id: string; label: string } }[] = [];
    const s = await agentSetup([{ content: [agentCall('make a file', 'Write x.txt')] }, say('done')], {
      input: { permissions: { mode: 'default', rules: [], workdir: '/home/project' } },
      runtime: {
        prompt: async (req) => {
          asked.push({ name: req.name, ...(req.agent ? { agent: req.agent } : {}) });
          return { decision: 'allow_once' };
        },
      },
      agents: { 'make a file': [{ content: [{ type: 'tool_use', name: 'write', input: { file_path: 'x.txt', content: 'x' } }] }, say('wrote it')] },
    });
    const { events } = await run(s);
    expect(asked).toEqual([{ name: 'write', agent: { id: 'agent-general-purpose_0001', label: 'general-purpose: make a file' } }]);
    const prompt = ofType(events, 'permission.prompt')[0]!;
    expect(prompt.agentId).toBe('agent-general-purpose_0001');
    expect(await s.deps.sandbox.fs.readFile('/home/project/x.txt')).toBe('x');
  });

  it('a subagent cannot start subagents unless its definition lists agent, and never past the depth limit', async () => {
    const nester = '---\nname: nester\ndescription: delegates further\ntools: Agent, Read\n---\nYou delegate.';
    const s = await agentSetup([{ content: [agentCall('plain', 'hi'), agentCall('nest', 'go', 'nester')] }, say('done')], {
      files: { '.claude/agents/nester.md': nester },
      agents: {
        plain: [say('plain done')],
        nest: [{ content: [agentCall('deeper', 'go', 'nester')] }, say('nest done')],
        deeper: [{ content: [agentCall('deepest', 'go', 'nester')] }, say('deeper done')],
        deepest: [say('deepest done')],
      },
    });
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const starts = ofType(events, 'subagent.start');
    const toolsOf = (description: string) => starts.find((e) => e.description === description)!;
    expect(toolsOf('plain').tools).not.toContain('agent');
    expect(toolsOf('nest').tools).toContain('agent');
    expect(toolsOf('deeper').depth).toBe(2);
    // Depth 2 is the last that may delegate (MAX_AGENT_DEPTH 3): "deepest" is started but has no agent tool.
    expect(toolsOf('deeper').tools).toContain('agent');
    expect(toolsOf('deepest').depth).toBe(3);
    expect(toolsOf('deepest').tools).not.toContain('agent');
    // Grandchildren's events pass through the child's stream unchanged into the main one.
    const deepest = toolsOf('deepest').childAgentId;
    expect(events.filter((e) => e.agentId === deepest).every((e) => e.parentToolUseId === toolsOf('deepest').toolUseId)).toBe(true);
  });

  it('abort mid-subagent stops every child and leaves every transcript valid', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const wait = buildTool({
      name: 'wait',
      description: 'waits until the run is stopped',
      inputSchema: z.object({}),
      isReadOnly: () => true,
      isConcurrencySafe: () => true,
      call: (_input, ctx) => {
        started.push(ctx.agentId);
        const stopped = new Promise<{ content: string }>((resolve) => {
          if (ctx.signal.aborted) resolve({ content: 'stopped' });
          ctx.signal.addEventListener('abort', () => resolve({ content: 'stopped' }), { once: true });
        });
        // Both children are mid-tool: stop the run.
        if (started.length === 2) controller.abort();
        return stopped;
      },
    });
    const waitTurn = { content: [{ type: 'tool_use' as const, name: 'wait', input: {} }] };
    const s = await agentSetup([{ content: [agentCall('a', 'wait'), agentCall('b', 'wait')] }, say('never')], {
      extraTools: () => [wait],
      input: { signal: controller.signal },
      agents: { a: [waitTurn, say('x')], b: [waitTurn, say('y')] },
    });
    const { events, result } = await run(s);
    expect(result.reason).toBe('aborted');
    expect(checkTranscript(result.messages)).toEqual([]);
    const kids = childIds(events);
    expect(kids).toHaveLength(2);
    for (const id of kids) {
      expect(ofType(events, 'run.end', id)[0]!.reason).toBe('aborted');
      expect(checkTranscript(historyOf(events, id))).toEqual([]);
    }
    const results = ofType(events, 'tool.result', 'main').filter((r) => r.name === 'agent');
    expect(results).toHaveLength(2);
    expect(results.every((r) => r.isError && /interrupted/.test(r.content))).toBe(true);
  });

  it('SubagentStart adds context; SubagentStop exit 2 keeps the child going, bounded like Stop', async () => {
    const parsed = parseHooksConfig({
      SubagentStart: [{ hooks: [{ type: 'command', command: 'echo \'{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"HOOK-CONTEXT"}}\'' }] }],
      SubagentStop: [{ hooks: [{ type: 'command', command: 'echo "write the report first" >&2; exit 2' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'exit 0' }] }],
    });
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const hooks = { config: parsed.config, session: { sessionId: 's', cwd: '/home/project', permissionMode: 'bypassPermissions' } };
    const s = await agentSetup([{ content: [agentCall('t', 'task')] }, say('done')], {
      runtime: { hooks },
      deps: { hooks },
      agents: { t: [say('a'), say('b'), say('c'), say('d')] },
    });
    const { events, result } = await run(s);
    expect(result.reason).toBe('completed');
    const child = childIds(events)[0]!;
    const runs = ofType(events, 'hook.run');
    const startRun = runs.find((r) => r.event === 'SubagentStart')!;
    expect(startRun.agentId).toBe('main');
    expect(startRun.input).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'general-purpose', agent_id: child });
    expect(JSON.stringify(ofType(events, 'model.request', child)[0]!.request.messages)).toContain('HOOK-CONTEXT');
    // The child fires SubagentStop (never Stop); 3 blocks, then the budget is spent.
    expect(runs.filter((r) => r.agentId === child).map((r) => r.event)).toEqual(['SubagentStop', 'SubagentStop', 'SubagentStop', 'SubagentStop']);
    const childTransitions = ofType(events, 'transition', child).map((t) => t.reason);
    expect(childTransitions).toEqual(['stop_hook_blocking', 'stop_hook_blocking', 'stop_hook_blocking', 'completed']);
    expect(runs.filter((r) => r.agentId === 'main').map((r) => r.event)).toEqual(['SubagentStart', 'Stop']);
    expect(textOf(result.messages.at(-1)!)).toBe('done');
  });

  it('a child goes at the consumer\'s pace: it does not run ahead of the events pulled', async () => {
    const made: ReturnType<typeof createScriptedClient>[] = [];
    const s = await agentSetup([{ content: [agentCall('t', 'task')] }, say('done')], {
      runtime: {
        modelFor: () => {
          const c = createScriptedClient([{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi' } }] }, say('child done')]);
          made.push(c);
          return c;
        },
      },
    });
    const loop = agentLoop(s.input, s.deps);
    const pulled: TraceEvent[] = [];
    while (pulled.at(-1)?.type !== 'subagent.start') pulled.push((await loop.next()).value as TraceEvent);
    // Let every timer and pending promise run: an eager child would reach its model by now.
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(made).toHaveLength(1);
    expect(made[0]!.requests).toHaveLength(0);
    // Pull up to the child's first model.request: only then has its model been called.
    while (!(pulled.at(-1)?.type === 'model.request' && pulled.at(-1)?.agentId !== 'main')) pulled.push((await loop.next()).value as TraceEvent);
    for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
    expect(made[0]!.requests.length).toBeLessThanOrEqual(1);
    for (let step = await loop.next(); !step.done; step = await loop.next()) pulled.push(step.value);
    expect(made[0]!.requests).toHaveLength(2);
  });

  it('the trailer has Claude Code\'s usage shape', () => {
    expect(usageTrailer('agent-x_0001', { turns: 2, totalTokens: 30, toolUses: 1, ms: 5 })).toBe(
      'agentId: agent-x_0001\n<usage>turns: 2\ntotal_tokens: 30\ntool_uses: 1\nduration_ms: 5</usage>',
    );
  });
});

describe('subagent models', () => {
  it('Claude Code aliases map to model ids (haiku, opus), inherit and no model use the parent\'s, a full id is sent as is', async () => {
    const files = {
      '.claude/agents/quick.md': '---\nname: quick\ndescription: d\nmodel: haiku\n---\nq',
      '.claude/agents/deep.md': '---\nname: deep\ndescription: d\nmodel: opus\n---\nd',
      '.claude/agents/same.md': '---\nname: same\ndescription: d\nmodel: inherit\n---\ns',
      '.claude/agents/exact.md': '---\nname: exact\ndescription: d\nmodel: claude-exact-1\n---\ne',
    };
    const s = await agentSetup([{ content: [agentCall('q', 'go', 'quick'), agentCall('d', 'go', 'deep'), agentCall('s', 'go', 'same'), agentCall('e', 'go', 'exact')] }, say('done')], {
      files,
      agents: { q: [say('q done')], d: [say('d done')], s: [say('s done')], e: [say('e done')] },
    });
    const { events } = await run(s);
    const starts = events.filter((e): e is Extract<TraceEvent, { type: 'subagent.start' }> => e.type === 'subagent.start');
    expect(starts.map((e) => e.model)).toEqual(['claude-haiku-5-5', 'claude-opus-5-5', 'test-model', 'claude-exact-1']);
    expect(starts[0]!.note).toBe('model alias "haiku" → claude-haiku-5-5');
    const req = (id: string) => events.find((e): e is Extract<TraceEvent, { type: 'model.request' }> => e.type === 'model.request' && e.agentId === id)!;
    expect(starts.map((st) => req(st.childAgentId).request.model)).toEqual(['claude-haiku-5-5', 'claude-opus-5-5', 'test-model', 'claude-exact-1']);
  });

  it('the environment retargets aliases and CLAUDE_CODE_SUBAGENT_MODEL wins over the definition, as in Claude Code', () => {
    const env = modelAliasesFromEnv({ ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-haiku-pinned', ANTHROPIC_DEFAULT_OPUS_MODEL: ' ', PATH: '/bin' });
    expect(env).toEqual({ haiku: 'claude-haiku-pinned' });
    expect(subagentModelId('haiku', 'parent', env)).toEqual({ id: 'claude-haiku-pinned', note: 'model alias "haiku" → claude-haiku-pinned' });
    expect(subagentModelId('opus', 'parent', env).id).toBe('claude-opus-5-5');
    expect(subagentModelId(undefined, 'parent', env)).toEqual({ id: 'parent' });
    const all = modelAliasesFromEnv({ CLAUDE_CODE_SUBAGENT_MODEL: 'sonnet' });
    expect(subagentModelId('claude-exact-1', 'parent', all)).toEqual({ id: 'claude-sonnet-5-5', note: "CLAUDE_CODE_SUBAGENT_MODEL sets every subagent's model: claude-sonnet-5-5" });
  });

  it('a scripted model without turns for a child is a tool error naming the scripts that exist', async () => {
    const s = await agentSetup([{ content: [agentCall('unscripted', 'go')] }, say('done')], { agents: { other: [say('x')] } });
    const { events } = await run(s);
    const r = events.find((e): e is Extract<TraceEvent, { type: 'tool.result' }> => e.type === 'tool.result' && e.name === 'agent')!;
    expect(r.isError).toBe(true);
    expect(r.content).toContain('no turns for this agent (description "unscripted", type "general-purpose")');
    expect(r.content).toContain('Scripts exist for: "other"');
  });
});
