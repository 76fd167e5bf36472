/**
 * Issue 19 §1: Claude Code's tool names reach our tools everywhere — permission rules, hook
 * matchers, hook `if`, agent `tools:` lists and skill `allowed-tools` — and a name that matches
 * nothing here is a warning, never silently nothing.
 */
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/harness/index.ts';
import { evaluateRules } from '../../src/harness/permissions/evaluate.ts';
import { callFacts } from '../../src/harness/permissions/call-facts.ts';
import { parseRule } from '../../src/harness/permissions/rules.ts';
import { prefilterTools } from '../../src/harness/permissions/prefilter.ts';
import type { RuleBehavior, SourcedRule } from '../../src/harness/permissions/types.ts';
import { compileMatcher, matcherSubject, matches } from '../../src/harness/hooks/matcher.ts';
import { hookConditionHolds } from '../../src/harness/hooks/condition.ts';
import { parseHooksConfig } from '../../src/harness/hooks/index.ts';
import { parseDefinition } from '../../src/harness/agents/subagents/definitions.ts';
import { SessionGrants } from '../../src/harness/permissions/session-grants.ts';
import { mergeSettings, parseSettings } from '../../src/harness/settings/index.ts';
import { agentCall, agentSetup, run, say } from './agents-fixture.ts';

const W = '/home/project';

function rules(spec: Partial<Record<RuleBehavior, string[]>>): SourcedRule[] {
  return (['deny', 'ask', 'allow'] as const).flatMap((behavior) =>
    (spec[behavior] ?? []).map((text) => {
      const p = parseRule(text);
      if (!p.ok) throw new Error(p.error);
      return { behavior, source: 'project', rule: p.rule };
    }),
  );
}
const decide = (name: string, input: unknown, spec: Partial<Record<RuleBehavior, string[]>>) => evaluateRules(callFacts(name, input, W, W), rules(spec), W).decision;

describe('Claude Code tool names in permission rules', () => {
  const cases: [rule: string, tool: string, input: unknown][] = [
    ['Agent', 'agent', { description: 'd', prompt: 'p' }],
    ['Task', 'agent', { description: 'd', prompt: 'p' }],
    ['Agent', 'spawn_teammate', { name: 'alice', prompt: 'p' }],
    ['TodoWrite', 'todo_write', { todos: [] }],
    ['Skill', 'skill', { skill: 'x' }],
    ['BashOutput', 'bash_output', { bash_id: 'b1' }],
    ['TaskOutput', 'bash_output', { bash_id: 'b1' }],
    ['KillShell', 'kill_shell', { shell_id: 'b1' }],
    ['TaskStop', 'kill_shell', { shell_id: 'b1' }],
    ['TaskCreate', 'task_create', { subject: 's' }],
    ['TaskUpdate', 'task_update', { taskId: '1' }],
    ['SendMessage', 'send_message', { to: 'bob', message: 'm' }],
    ['MultiEdit', 'edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b' }],
    ['Edit', 'write', { file_path: 'a.txt', content: 'x' }],
  ];
  it.each(cases)('deny %s stops our %s', (rule, tool, input) => {
    expect(decide(tool, input, { deny: [rule] })).toBe('deny');
    expect(decide(tool, input, { ask: [rule] })).toBe('ask');
  });

  it('a bare deny of Agent hides the agent tool from the model (prefilter)', () => {
    const { visible: tools } = prefilterTools([{ name: 'agent' }, { name: 'bash' }, { name: 'spawn_teammate' }], rules({ deny: ['Agent'] }));
    expect(tools.map((t) => t.name)).toEqual(['bash']);
  });

  it('Agent(type) names a subagent type; an allow never widens to other types', () => {
    const explore = { description: 'd', prompt: 'p', subagent_type: 'Explore' };
    expect(decide('agent', explore, { deny: ['Agent(Explore)'] })).toBe('deny');
    expect(decide('agent', { description: 'd', prompt: 'p' }, { deny: ['Agent(Explore)'] })).toBe('passthrough');
    expect(decide('agent', { description: 'd', prompt: 'p' }, { allow: ['Agent(general-purpose)'] })).toBe('allow');
    expect(decide('agent', explore, { allow: ['Agent(general-purpose)'] })).toBe('passthrough');
    // A teammate spawn has no subagent type: a typed deny still stops it (fail closed), a typed allow grants nothing.
    expect(decide('spawn_teammate', { name: 'a', prompt: 'p' }, { deny: ['Agent(Explore)'] })).toBe('deny');
    expect(decide('spawn_teammate', { name: 'a', prompt: 'p' }, { allow: ['Agent(Explore)'] })).toBe('passthrough');
  });

  it('Claude Code names other than the file tools are case-sensitive, and also cover a custom tool of that exact name', () => {
    expect(decide('agent', { description: 'd', prompt: 'p' }, { deny: ['task'] })).toBe('passthrough');
    expect(decide('task', {}, { deny: ['task'] })).toBe('deny');
    expect(decide('Monitor', {}, { deny: ['Monitor'] })).toBe('deny');
    expect(decide('bash', { command: 'ls' }, { deny: ['BASH'] })).toBe('deny');
  });

  it('a specifier we cannot read fails closed: deny covers the whole tool, allow grants nothing', () => {
    expect(decide('todo_write', { todos: [] }, { deny: ['TodoWrite(anything)'] })).toBe('deny');
    expect(decide('todo_write', { todos: [] }, { allow: ['TodoWrite(anything)'] })).toBe('passthrough');
  });

  it('an imported deny: ["Agent"] stops subagents in a real run', async () => {
    const merged = mergeSettings([{ source: 'project', settings: { permissions: { deny: ['Agent'] } } }]);
    const permissions = { mode: 'bypassPermissions' as const, rules: merged.rules, workdir: W };
    const s = await agentSetup([{ content: [agentCall('t', 'task')] }, say('done')], { input: { permissions }, runtime: { permissions }, agents: { t: [say('child ran')] } });
    const { events } = await run(s);
    expect(events.some((e: TraceEvent) => e.type === 'subagent.start')).toBe(false);
    const req = events.find((e): e is Extract<TraceEvent, { type: 'model.request' }> => e.type === 'model.request')!;
    expect(req.request.tools?.map((t) => t.name)).not.toContain('agent');
  });

  it('skill allowed-tools in Claude Code names grant our tools', () => {
    const grants = new SessionGrants();
    expect(grants.add(['TodoWrite', 'Agent']).invalid).toEqual([]);
    expect(evaluateRules(callFacts('todo_write', { todos: [] }, W, W), grants.rules, W).decision).toBe('allow');
    expect(evaluateRules(callFacts('agent', { description: 'd', prompt: 'p' }, W, W), grants.rules, W).decision).toBe('allow');
  });
});

describe('Claude Code tool names in hooks', () => {
  const fires = (matcher: string, tool: string) => matches(compileMatcher(matcher), matcherSubject('PreToolUse', { tool_name: tool }));
  it.each([
    ['Agent', 'agent'],
    ['Task', 'agent'],
    ['TodoWrite', 'todo_write'],
    ['Skill', 'skill'],
    ['BashOutput', 'bash_output'],
    ['KillShell', 'kill_shell'],
    ['Edit|MultiEdit', 'edit'],
    ['Task.*', 'task_create'],
  ])('matcher %s fires for our %s', (matcher, tool) => {
    expect(fires(matcher, tool)).toBe(true);
  });

  it('a matcher never widens to another tool (an Edit PermissionRequest hook does not see writes)', () => {
    expect(fires('Edit', 'write')).toBe(false);
    expect(fires('Agent', 'todo_write')).toBe(false);
  });

  it('"if" conditions read Claude Code names', () => {
    const input = { hook_event_name: 'PreToolUse', tool_name: 'agent', tool_input: { description: 'd', prompt: 'p', subagent_type: 'Explore' }, cwd: W } as never;
    expect(hookConditionHolds('Agent', input)).toBe(true);
    expect(hookConditionHolds('Agent(Explore)', input)).toBe(true);
    expect(hookConditionHolds('TodoWrite', input)).toBe(false);
  });
});

describe('agent tools: lists', () => {
  it('map Claude Code names to ours', () => {
    const r = parseDefinition('.claude/agents/w.md', '---\nname: w\ndescription: d\ntools: Read, TodoWrite, Agent, BashOutput, KillShell, Skill, Agent(worker)\n---\nbody');
    if (!r.ok) throw new Error(r.problem.message);
    // Agent(worker) (some agent types only) is not modelled: it names no tool, so it grants none.
    expect(r.definition.tools).toEqual(['read', 'todo_write', 'agent', 'bash_output', 'kill_shell', 'skill', 'Agent(worker)']);
  });
});

describe('names that match nothing here are warnings', () => {
  it('rules, matchers and if naming a tool we lack or nobody has', () => {
    const text = JSON.stringify(
      {
        permissions: { deny: ['WebSearch', 'NotebookEdit(x.ipynb)', 'Agnet'], allow: ['TodoWrite'] },
        hooks: { PreToolUse: [{ matcher: 'AskUserQuestion|Bash', hooks: [{ type: 'command', command: 'true', if: 'Sekill' }] }] },
      },
      null,
      2,
    );
    const r = parseSettings(text, 'json');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const msgs = r.warnings.map((w) => `${w.line}: ${w.message}`);
    expect(msgs.some((m) => /^4: .*WebSearch, a Claude Code tool not available here/.test(m))).toBe(true);
    expect(msgs.some((m) => /^5: .*NotebookEdit, a Claude Code tool not available here/.test(m))).toBe(true);
    expect(msgs.some((m) => /^6: .*"Agnet", which is neither a Claude Code tool nor one of ours/.test(m))).toBe(true);
    expect(msgs.some((m) => /AskUserQuestion, a Claude Code tool not available here/.test(m))).toBe(true);
    expect(msgs.some((m) => /"Sekill", which is neither/.test(m))).toBe(true);
    expect(msgs.some((m) => /TodoWrite|Bash"/.test(m) && !/Sekill|Agnet|AskUser/.test(m))).toBe(false);
    expect(parseHooksConfig({}).ok).toBe(true);
  });
});
