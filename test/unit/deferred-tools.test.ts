/**
 * Issue 23 §1: tools on demand. Rarely used tools are named in `tool_search`'s description and
 * their schemas stay out of the request until the model loads them; a load appends the schema at
 * the end of the tool list (one cache break, never a reorder) and is announced as `tools.changed`
 * with `loaded` and `why`. Scripted scenarios opt in (`settings.deferTools`); live runs pass it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deferredToolNames, DEFAULT_DEFERRED_TOOLS } from '../../src/harness/index.ts';
import { buildTool } from '../../src/harness/tools/tool.ts';
import { matchDeferred } from '../../src/harness/loop/tool-search-tool.ts';
import { harnessToolNameOf } from '../../src/harness/permissions/tool-names.ts';
import { summarize } from '../../src/ui/events/summary.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { captionOf } from '../../src/ui/state/stage.ts';
import { ofType } from '../helpers/events.ts';
import { results, runScenario, scenarioWith } from './custom-tools-fixture.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';

const toolNames = (events: TraceEvent[]) => ofType(events, 'model.request').map((e) => (e.request.tools ?? []).map((t) => t.name));

/** Turn 1 calls a deferred tool unloaded; turn 2 loads it; turn 3 calls it; turn 4 ends. */
const turns = [
  { content: [{ type: 'tool_use' as const, name: 'todo_write', input: { todos: [{ content: 'look', status: 'pending', activeForm: 'Looking' }] } }] },
  { content: [{ type: 'tool_use' as const, name: 'tool_search', input: { query: 'select:todo_write' } }] },
  { content: [{ type: 'tool_use' as const, name: 'todo_write', input: { todos: [{ content: 'look', status: 'in_progress', activeForm: 'Looking' }] } }] },
  { content: [{ type: 'text' as const, text: 'done' }] },
];

describe('deferred tools behind tool_search', () => {
  it('lists deferred tools by name, refuses them until loaded, then appends the schema once', async () => {
    const { events } = await runScenario(scenarioWith(turns, { deferTools: true, agentTools: ['tasks'] }));
    const [first, second, third, fourth] = toolNames(events);
    // Request 1: no deferred schema, tool_search listing them.
    for (const n of ['todo_write', 'task_create', 'task_list', 'task_get', 'task_update']) expect(first).not.toContain(n);
    expect(first).toContain('tool_search');
    const search = ofType(events, 'model.request')[0]!.request.tools!.find((t) => t.name === 'tool_search')!;
    expect(search.description).toContain('todo_write');
    expect(search.description).toContain('task_create');
    // The unloaded call is refused, naming the way to load it.
    const [refused, loaded, ran] = results(events);
    expect(refused).toMatchObject({ name: 'todo_write', isError: true });
    expect(refused!.content).toContain('tool_search');
    expect(loaded).toMatchObject({ name: 'tool_search', isError: false });
    expect(ran).toMatchObject({ name: 'todo_write', isError: false });
    // Request 2 is request 1; request 3 is request 2 plus todo_write at the end (nothing reordered); request 4 keeps it.
    expect(second).toEqual(first);
    expect(third).toEqual([...second!, 'todo_write']);
    expect(fourth).toEqual(third);
    // Announced once, before request 3, with what loaded it.
    const changed = ofType(events, 'tools.changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatchObject({ loaded: ['todo_write'], added: [], removed: [], changed: [] });
    expect(changed[0]!.why).toContain('select:todo_write');
    expect(summarize(changed[0]!)).toContain('loaded todo_write');
    expect(explainEvent(changed[0]!).why).toContain('todo_write');
    // The loop diagram's caption says when it joined and why.
    expect(captionOf(changed[0]!)).toMatch(/todo_write joined the tool list \(tool_search "select:todo_write"\)/);
    // One cache break for the load, at request 3 only: the tools grew at their end, the old tools are still read.
    const stats = ofType(events, 'cache.stats');
    expect(stats.map((s) => s.breakDiff?.part ?? null)).toEqual([null, null, 'tools', null]);
    expect(stats[2]!.breakDiff!.detail).toContain('appended');
    expect(stats[2]!.read).toBeGreaterThanOrEqual(stats[2]!.breakDiff!.sharedPrefixTokens);
    expect(stats[2]!.read).toBeGreaterThan(0);
  });

  it('a keyword query loads the matching tools; without deferTools every schema is sent as before', async () => {
    const byWord = [
      { content: [{ type: 'tool_use' as const, name: 'tool_search', input: { query: 'task board' } }] },
      { content: [{ type: 'text' as const, text: 'done' }] },
    ];
    const { events } = await runScenario(scenarioWith(byWord, { deferTools: true, agentTools: ['tasks'] }));
    const loaded = ofType(events, 'tools.changed')[0]!.loaded!;
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded).toEqual(expect.arrayContaining(['task_create', 'task_list']));
    expect(toolNames(events)[1]!.slice(-loaded.length)).toEqual(loaded);

    const plain = await runScenario(scenarioWith(byWord, { agentTools: ['tasks'] }));
    const names = toolNames(plain.events)[0]!;
    expect(names).not.toContain('tool_search');
    expect(names).toContain('task_create');
    expect(results(plain.events)[0]).toMatchObject({ name: 'tool_search', isError: true });
  });

  it('a bare deny keeps a tool out of the listing too', async () => {
    const { events } = await runScenario(scenarioWith([{ content: [{ type: 'text' as const, text: 'ok' }] }], { deferTools: true, agentTools: ['tasks'], permissions: { deny: ['TaskCreate'] } }));
    const search = ofType(events, 'model.request')[0]!.request.tools!.find((t) => t.name === 'tool_search')!;
    expect(search.description).not.toContain('task_create');
    expect(search.description).toContain('task_list');
  });
});

describe('which tools are deferred', () => {
  const tool = (name: string, schemaChars = 10) =>
    buildTool({ name, description: 'x'.repeat(schemaChars), inputSchema: z.object({ a: z.string() }), call: async () => ({ content: '' }) });

  it('the rarely used built-ins always; MCP tools only past 10 % of the window', () => {
    const small = [tool('bash'), tool('agent'), tool('webfetch'), tool('mcp__db__query', 4_000)];
    expect(deferredToolNames(small, 200_000)).toEqual(['agent', 'webfetch']);
    // 4,000 chars ≈ 1,000 tokens: over 10 % of a 8k window, under 10 % of 200k.
    expect(deferredToolNames(small, 8_000)).toEqual(['agent', 'webfetch', 'mcp__db__query']);
    expect(DEFAULT_DEFERRED_TOOLS).toContain('todo_write');
  });

  it('select: loads by name, keywords by name or description', () => {
    const waiting = [tool('agent'), tool('task_create'), tool('task_list')];
    expect(matchDeferred('select:agent, task_list', waiting).map((t) => t.name)).toEqual(['agent', 'task_list']);
    expect(matchDeferred('task', waiting).map((t) => t.name)).toEqual(['task_create', 'task_list']);
    expect(matchDeferred('nothing', waiting)).toEqual([]);
  });

  it('Claude Code calls it ToolSearch', () => {
    expect(harnessToolNameOf('ToolSearch')).toBe('tool_search');
  });
});
