import { describe, expect, it } from 'vitest';
import {
  buildHookInput,
  compileMatcher,
  HOOK_EVENTS,
  matcherSubject,
  matches,
  parseHooksConfig,
  type HookPayload,
} from '../../src/harness/hooks/index.ts';
import { SESSION } from './hooks-fixture.ts';

describe('hooks config schema', () => {
  it('accepts command and js hooks under every event', () => {
    const raw = Object.fromEntries(
      HOOK_EVENTS.map((e) => [e, [{ matcher: '*', hooks: [{ type: 'command', command: 'true', timeout: 5 }, { type: 'js', code: 'return' }] }]]),
    );
    const r = parseHooksConfig(raw);
    expect(r.ok).toBe(true);
    if (r.ok) expect(Object.keys(r.config)).toEqual([...HOOK_EVENTS]);
  });

  it('treats a missing hooks key as no hooks', () => {
    expect(parseHooksConfig(undefined)).toEqual({ ok: true, config: {} });
  });

  it('names an unknown event and suggests the right case', () => {
    const r = parseHooksConfig({ pretooluse: [], OnSave: [] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatch(/^hooks\.pretooluse: unknown hook event "pretooluse" \(did you mean "PreToolUse"\?/);
    expect(r.errors[1]).toMatch(/^hooks\.OnSave: unknown hook event "OnSave"; valid events: Setup, SessionStart, /);
  });

  it.each([
    [{ Stop: [{ hooks: [{ type: 'agent', prompt: 'x' }] }] }, 'hooks.Stop.0.hooks.0.type: unknown hook type "agent": use "command", "prompt", "http" or "js"'],
    [{ Stop: [{ hooks: [{ type: 'prompt', prompt: ' ' }] }] }, 'hooks.Stop.0.hooks.0.prompt: a prompt hook needs a non-empty "prompt"'],
    [{ Stop: [{ hooks: [{ command: 'x' }] }] }, 'hooks.Stop.0.hooks.0.type: a hook needs "type": "command", "prompt", "http" or "js"'],
    [{ Stop: [{ hooks: [{ type: 'command', command: '  ' }] }] }, 'hooks.Stop.0.hooks.0.command: a command hook needs a non-empty "command"'],
    [{ Stop: [{ hooks: [{ type: 'js', code: '' }] }] }, 'hooks.Stop.0.hooks.0.code: a js hook needs a non-empty "code" (a function body)'],
    [{ Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 0 }] }] }, 'hooks.Stop.0.hooks.0.timeout: timeout must be a positive number of seconds'],
    [{ Stop: [{ hooks: [{ type: 'command', command: 'x', timeout: 60_000 }] }] }, 'hooks.Stop.0.hooks.0.timeout: timeout is in seconds and at most 3600 (one hour)'],
  ])('reports %j clearly', (raw, message) => {
    const r = parseHooksConfig(raw);
    expect(r).toEqual({ ok: false, errors: [message] });
  });
});

describe('matchers', () => {
  // [matcher, tool name, matches?]
  const table: [string | undefined, string, boolean][] = [
    [undefined, 'bash', true],
    ['', 'edit', true],
    ['*', 'mcp__github__create_issue', true],
    ['bash', 'bash', true],
    ['Bash', 'bash', true], // Claude Code's name for our tool
    ['bash', 'bash2', false], // whole name, not a prefix
    ['ash', 'bash', false], // not a substring
    ['BASH', 'bash', false], // case-sensitive
    ['bash ', 'bash', true], // surrounding spaces ignored
    ['edit|write', 'write', true],
    ['Edit|Write', 'write', true],
    ['edit|write', 'read', false],
    ['edit | write', 'edit', true],
    ['edit|write', 'edit|write', false], // a list, not a literal
    ['mcp__github__.*', 'mcp__github__create_issue', true],
    ['mcp__github__.*', 'mcp__gitlab__x', false],
    ['mcp__.*__write.*', 'mcp__fs__write_file', true],
    ['Notebook.*', 'read', false],
    ['(read|grep)', 'grep', true],
    ['re.d', 'read', true],
    ['re.d', 'reads', false], // anchored at the end too
    ['.*e.*', 'read', true],
    ['[gG]lob', 'glob', true],
    ['mcp__memory__create_entities', 'mcp__memory__create_entities', true],
    ['revert', 'revert', true],
    ['Revert', 'revert', false], // no Claude Code alias for revert
  ];
  it.each(table)('matcher %j vs tool %j → %s', (matcher, tool, expected) => {
    const subject = matcherSubject('PreToolUse', { tool_name: tool });
    expect(matches(compileMatcher(matcher), subject)).toBe(expected);
  });

  it('classifies matchers', () => {
    expect(compileMatcher('*')).toMatchObject({ ok: true, kind: 'all' });
    expect(compileMatcher('a|b')).toMatchObject({ ok: true, kind: 'list' });
    expect(compileMatcher('a.*')).toMatchObject({ ok: true, kind: 'regex' });
  });

  it('reports an invalid regex and never matches with it', () => {
    const c = compileMatcher('bash(');
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.error).toMatch(/^matcher "bash\(" is not a valid regular expression/);
    expect(matches(c, ['bash('])).toBe(false);
  });

  it("tests each event's matcher against the field Claude Code's hooks reference names", () => {
    expect(matcherSubject('SessionEnd', { reason: 'clear' })).toEqual(['clear']);
    expect(matcherSubject('StopFailure', { error: 'rate_limit' })).toEqual(['rate_limit']);
    expect(matcherSubject('Notification', { notification_type: 'permission_prompt' })).toEqual(['permission_prompt']);
    expect(matcherSubject('SubagentStop', { agent_type: 'explore' })).toEqual(['explore']);
    expect(matcherSubject('ConfigChange', { source: 'project_settings' })).toEqual(['project_settings']);
    expect(matcherSubject('InstructionsLoaded', { load_reason: 'session_start' })).toEqual(['session_start']);
    expect(matcherSubject('PermissionDenied', { tool_name: 'bash' })).toEqual(['bash', 'Bash']);
  });

  it('tests SessionStart against source and PreCompact/PostCompact against trigger; others ignore it', () => {
    expect(matcherSubject('SessionStart', { source: 'resume' })).toEqual(['resume']);
    expect(matcherSubject('PreCompact', { trigger: 'auto' })).toEqual(['auto']);
    expect(matcherSubject('PostCompact', { trigger: 'manual' })).toEqual(['manual']);
    expect(matches(compileMatcher('startup|resume'), ['resume'])).toBe(true);
    expect(matches(compileMatcher('startup'), ['compact'])).toBe(false);
    for (const e of ['Stop', 'UserPromptSubmit', 'TeammateIdle', 'TaskCreated', 'TaskCompleted', 'WorktreeCreate'] as const) {
      expect(matcherSubject(e, { tool_name: 'bash' })).toBeNull();
      expect(matches(compileMatcher('nothing-like-this'), null)).toBe(true);
    }
  });
});

describe('hook input JSON', () => {
  const common = {
    session_id: 'sess_1',
    transcript_path: '/home/project/.harness/transcripts/sess_1.jsonl',
    cwd: '/home/project',
    permission_mode: 'default',
  };
  const cases: [HookPayload, Record<string, unknown>][] = [
    [
      { event: 'PreToolUse', toolName: 'bash', toolInput: { command: 'ls' }, toolUseId: 't1' },
      { tool_name: 'bash', tool_input: { command: 'ls' }, tool_use_id: 't1' },
    ],
    [
      { event: 'PermissionRequest', toolName: 'write', toolInput: { path: 'a' }, toolUseId: 't2' },
      { tool_name: 'write', tool_input: { path: 'a' }, tool_use_id: 't2' },
    ],
    [
      { event: 'PostToolUse', toolName: 'read', toolInput: { path: 'a' }, toolUseId: 't3', toolResponse: 'text' },
      { tool_name: 'read', tool_input: { path: 'a' }, tool_use_id: 't3', tool_response: 'text' },
    ],
    [
      { event: 'PostToolUseFailure', toolName: 'bash', toolInput: { command: 'x' }, toolUseId: 't4', error: 'Exit code 1' },
      { tool_name: 'bash', tool_input: { command: 'x' }, tool_use_id: 't4', error: 'Exit code 1' },
    ],
    [{ event: 'UserPromptSubmit', prompt: 'hi' }, { prompt: 'hi' }],
    [{ event: 'Stop', stopHookActive: true }, { stop_hook_active: true }],
    [
      { event: 'SubagentStop', stopHookActive: false, agentId: 'a1', agentType: 'explore' },
      { stop_hook_active: false, agent_id: 'a1', agent_type: 'explore' },
    ],
    [{ event: 'SubagentStart', agentId: 'a1', agentType: 'explore' }, { agent_id: 'a1', agent_type: 'explore' }],
    [{ event: 'SessionStart', source: 'startup' }, { source: 'startup' }],
    [{ event: 'PreCompact', trigger: 'manual', customInstructions: 'keep todos' }, { trigger: 'manual', custom_instructions: 'keep todos' }],
    [{ event: 'PostCompact', trigger: 'auto' }, { trigger: 'auto' }],
    [{ event: 'Notification', message: 'needs approval' }, { message: 'needs approval' }],
    [{ event: 'SessionEnd', reason: 'clear' }, { reason: 'clear' }],
  ];
  it.each(cases)('%j', (payload, fields) => {
    expect(buildHookInput(payload, SESSION)).toEqual({ ...common, hook_event_name: payload.event, ...fields });
  });

  it('uses a given transcript path and permission mode', () => {
    const input = buildHookInput({ event: 'Stop', stopHookActive: false }, { ...SESSION, permissionMode: 'plan', transcriptPath: '/x.jsonl' });
    expect(input).toMatchObject({ permission_mode: 'plan', transcript_path: '/x.jsonl' });
  });
});
