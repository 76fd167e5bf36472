import { describe, expect, it } from 'vitest';
import { buildHookInput, MAX_ADDITIONAL_CONTEXT_CHARS, type HookPayload } from '../../src/harness/hooks/index.ts';
import { cmd, config, hooksFixture, PRE_BASH, SESSION } from './hooks-fixture.ts';

const json = (v: unknown) => `echo '${JSON.stringify(v)}'`;

describe('runHooks: running command hooks in the sandbox', () => {
  it('gives the input JSON on stdin, CLAUDE_PROJECT_DIR in the env, and reports the run', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', 'cat > /tmp/in.json; echo "$CLAUDE_PROJECT_DIR" > /tmp/dir; pwd', 'bash'));
    const input = buildHookInput(PRE_BASH, SESSION);
    expect(JSON.parse(await f.sandbox.fs.readFile('/tmp/in.json'))).toEqual(input);
    expect(await f.sandbox.fs.readFile('/tmp/dir')).toBe('/home/project\n');
    expect(r.runs).toHaveLength(1);
    expect(r.runs[0]).toMatchObject({
      type: 'hook.run',
      event: 'PreToolUse',
      matcher: 'bash',
      hook: { type: 'command', command: expect.stringContaining('cat > /tmp/in.json') },
      input,
      exitCode: 0,
      stdout: '/home/project\n',
      stderr: '',
      timedOut: false,
      decision: 'none',
    });
    expect(typeof r.runs[0]!.ms).toBe('number');
    expect(r.outcome).toEqual({ systemMessages: [], userMessages: ['/home/project'], ran: 1 });
  });

  it('runs nothing when no matcher selects the tool', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', 'exit 2', 'edit|write'));
    expect(r.events).toEqual([]);
    expect(r.outcome).toEqual({ systemMessages: [], userMessages: [], ran: 0 });
  });

  it('runs nothing for an event with no hooks configured', async () => {
    const f = await hooksFixture();
    const r = await f.run({ event: 'Stop', stopHookActive: false }, cmd('PreToolUse', 'exit 2'));
    expect(r.outcome.ran).toBe(0);
  });

  it('lets a hook read its input with jq and deny a dangerous command', async () => {
    const f = await hooksFixture();
    const hook = cmd('PreToolUse', `c=$(jq -r .tool_input.command); case "$c" in rm*) echo "no rm: $c" >&2; exit 2;; esac`, 'Bash');
    const rm = await f.run({ ...PRE_BASH, toolInput: { command: 'rm -rf /' } } as HookPayload, hook);
    expect(rm.outcome).toMatchObject({ decision: 'deny', block: true, reason: 'no rm: rm -rf /' });
    const ls = await f.run(PRE_BASH, hook);
    expect(ls.outcome.decision).toBeUndefined();
    expect(ls.outcome.block).toBeUndefined();
  });
});

describe('runHooks: exit codes per event', () => {
  const tool = { toolName: 'bash', toolInput: { command: 'ls' }, toolUseId: 't' };
  const blocking: [HookPayload, Record<string, unknown>][] = [
    [{ event: 'PreToolUse', ...tool }, { decision: 'deny', block: true, reason: 'why' }],
    [{ event: 'PermissionRequest', ...tool }, { decision: 'deny', block: true, reason: 'why' }],
    [{ event: 'PostToolUse', ...tool, toolResponse: 'ok' }, { block: true, reason: 'why' }],
    [{ event: 'PostToolUseFailure', ...tool, error: 'Exit code 1' }, { block: true, reason: 'why' }],
    [{ event: 'UserPromptSubmit', prompt: 'hi' }, { block: true, reason: 'why' }],
    [{ event: 'Stop', stopHookActive: false }, { block: true, reason: 'why' }],
    [{ event: 'SubagentStop', stopHookActive: false, agentId: 'a', agentType: 'x' }, { block: true, reason: 'why' }],
    [{ event: 'TaskCreated', taskId: '1', taskSubject: 's' }, { block: true, reason: 'why' }],
    [{ event: 'TaskCompleted', taskId: '1', taskSubject: 's' }, { block: true, reason: 'why' }],
    [{ event: 'WorktreeCreate', name: 'agent-1' }, { block: true, reason: 'why' }],
    [{ event: 'TeammateIdle', teammateName: 'bob', teamName: 't' }, { block: true, reason: 'why' }],
    [{ event: 'ConfigChange', source: 'project_settings', filePath: '/p/.claude/settings.json' }, { block: true, reason: 'why' }],
    [{ event: 'UserPromptExpansion', commandName: 'review', commandArgs: '', prompt: 'p' }, { block: true, reason: 'why' }],
  ];
  it.each(blocking)('exit 2 blocks %j with stderr as the reason', async (payload, expected) => {
    const f = await hooksFixture();
    const r = await f.run(payload, cmd(payload.event, 'echo ignored; echo why >&2; exit 2'));
    expect(r.outcome).toEqual({ ...expected, systemMessages: [], userMessages: [], ran: 1 });
    expect(r.runs[0]).toMatchObject({ exitCode: 2, stderr: 'why\n', reason: 'why', decision: expected.decision ?? 'block' });
  });

  const cannotBlock: HookPayload[] = [
    { event: 'SessionStart', source: 'startup' },
    { event: 'Notification', message: 'm' },
    { event: 'PreCompact', trigger: 'auto', customInstructions: '' },
    { event: 'PostCompact', trigger: 'auto' },
    { event: 'SubagentStart', agentId: 'a', agentType: 'x' },
    { event: 'SessionEnd', reason: 'other' },
    { event: 'StopFailure', error: 'rate_limit', errorDetails: '429' },
    { event: 'PermissionDenied', ...tool, reason: 'denied' },
    { event: 'InstructionsLoaded', filePath: '/p/CLAUDE.md', memoryType: 'Project', loadReason: 'session_start' },
    { event: 'WorktreeRemove', worktreePath: '/w' },
  ];
  it.each(cannotBlock)('exit 2 on %j only tells the user', async (payload) => {
    const f = await hooksFixture();
    const r = await f.run(payload, cmd(payload.event, 'echo why >&2; exit 2'));
    expect(r.outcome.block).toBeUndefined();
    expect(r.outcome.decision).toBeUndefined();
    expect(r.outcome.userMessages).toEqual([`${payload.event} hook "echo why >&2; exit 2" reported (exit 2): why`]);
  });

  it('exit 2 without stderr still gives a reason, and JSON on stdout is ignored', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', `${json({ hookSpecificOutput: { permissionDecision: 'allow' } })}; exit 2`));
    expect(r.outcome).toMatchObject({ decision: 'deny', reason: expect.stringContaining('blocked this (exit 2) without a message') });
  });

  it.each([1, 3, 127])('exit %i is a non-blocking error shown to the user', async (code) => {
    const f = await hooksFixture();
    const command = code === 127 ? 'no-such-command-here' : `echo broken >&2; exit ${code}`;
    const r = await f.run(PRE_BASH, cmd('PreToolUse', command));
    expect(r.outcome.decision).toBeUndefined();
    expect(r.outcome.block).toBeUndefined();
    expect(r.outcome.userMessages).toHaveLength(1);
    expect(r.outcome.userMessages[0]).toMatch(new RegExp(`^PreToolUse hook ".*" failed \\(exit ${code}\\).*; the agent goes on\\.$`));
    expect(r.runs[0]).toMatchObject({ exitCode: code, decision: 'continue' });
  });

  it('plain stdout is context for UserPromptSubmit and SessionStart, a note for the user elsewhere', async () => {
    const f = await hooksFixture();
    const prompt = await f.run({ event: 'UserPromptSubmit', prompt: 'hi' }, cmd('UserPromptSubmit', 'echo "Today is Monday"'));
    expect(prompt.outcome).toEqual({ additionalContext: 'Today is Monday', systemMessages: [], userMessages: [], ran: 1 });
    const start = await f.run({ event: 'SessionStart', source: 'startup' }, cmd('SessionStart', 'echo "branch: main"', 'startup'));
    expect(start.outcome.additionalContext).toBe('branch: main');
    const resume = await f.run({ event: 'SessionStart', source: 'resume' }, cmd('SessionStart', 'echo "branch: main"', 'startup'));
    expect(resume.outcome.ran).toBe(0);
    const post = await f.run({ event: 'PostToolUse', ...tool, toolResponse: 'x' }, cmd('PostToolUse', 'echo formatted'));
    expect(post.outcome).toEqual({ systemMessages: [], userMessages: ['formatted'], ran: 1 });
  });
});

describe('runHooks: JSON output', () => {
  it('continue: false stops the run with stopReason (or a default)', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', json({ continue: false, stopReason: 'build is red' })));
    expect(r.outcome.stopRun).toEqual({ reason: 'build is red' });
    expect(r.outcome.decision).toBeUndefined();
    expect(r.runs[0]).toMatchObject({ decision: 'stop', reason: 'build is red' });
    const d = await f.run({ event: 'Stop', stopHookActive: false }, cmd('Stop', json({ continue: false })));
    expect(d.outcome.stopRun?.reason).toMatch(/stopped the run \(continue: false\)/);
  });

  it('systemMessage is shown to the user', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', json({ systemMessage: 'careful: prod config' })));
    expect(r.outcome).toEqual({ systemMessages: ['careful: prod config'], userMessages: [], ran: 1 });
  });

  it('decision "block" blocks Stop, PostToolUse and UserPromptSubmit with its reason', async () => {
    const f = await hooksFixture();
    const out = json({ decision: 'block', reason: 'tests still fail' });
    for (const payload of [
      { event: 'Stop', stopHookActive: false },
      { ...PRE_BASH, event: 'PostToolUse', toolResponse: 'x' },
      { event: 'UserPromptSubmit', prompt: 'p' },
    ] as HookPayload[]) {
      const r = await f.run(payload, cmd(payload.event, out));
      expect(r.outcome).toMatchObject({ block: true, reason: 'tests still fail' });
    }
  });

  it('decision "block" where nothing can be blocked is reported and ignored; suppressOutput hides the note', async () => {
    const f = await hooksFixture();
    const n = await f.run({ event: 'Notification', message: 'm' }, cmd('Notification', json({ decision: 'block', reason: 'r' })));
    expect(n.outcome.block).toBeUndefined();
    expect(n.outcome.userMessages).toEqual(['Notification hook "echo \'{\\"decision\\":\\"block\\",\\"reason\\":\\"r\\"}\'": decision "block" has no effect on Notification: r.']);
    const s = await f.run({ event: 'Notification', message: 'm' }, cmd('Notification', json({ decision: 'block', reason: 'r', suppressOutput: true })));
    expect(s.outcome.userMessages).toEqual([]);
  });

  it.each(['allow', 'deny', 'ask'] as const)('hookSpecificOutput.permissionDecision %s with its reason', async (d) => {
    const f = await hooksFixture();
    const out = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d, permissionDecisionReason: `said ${d}` } });
    const r = await f.run(PRE_BASH, cmd('PreToolUse', out));
    expect(r.outcome).toMatchObject({ decision: d, reason: `said ${d}` });
    expect(r.outcome.block).toBe(d === 'deny' ? true : undefined);
    expect(r.runs[0]!.decision).toBe(d);
  });

  it('accepts the older top-level decision approve / block for PreToolUse', async () => {
    const f = await hooksFixture();
    const a = await f.run(PRE_BASH, cmd('PreToolUse', json({ decision: 'approve', reason: 'fine' })));
    expect(a.outcome).toMatchObject({ decision: 'allow', reason: 'fine' });
    const b = await f.run(PRE_BASH, cmd('PreToolUse', json({ decision: 'block', reason: 'no' })));
    expect(b.outcome).toMatchObject({ decision: 'deny', block: true, reason: 'no' });
  });

  it('ignores an unknown permissionDecision, and hookSpecificOutput meant for another event, saying so', async () => {
    const f = await hooksFixture();
    const bad = await f.run(PRE_BASH, cmd('PreToolUse', json({ hookSpecificOutput: { permissionDecision: 'yes' } })));
    expect(bad.outcome.decision).toBeUndefined();
    expect(bad.outcome.userMessages[0]).toMatch(/permissionDecision "yes" is not allow, deny or ask; ignored/);
    const other = await f.run(PRE_BASH, cmd('PreToolUse', json({ hookSpecificOutput: { hookEventName: 'PostToolUse', permissionDecision: 'deny' } })));
    expect(other.outcome.decision).toBeUndefined();
    expect(other.outcome.userMessages[0]).toMatch(/hookSpecificOutput is for PostToolUse, not PreToolUse; ignored/);
  });

  it('PermissionRequest: decision.behavior allow / deny with message and updatedInput', async () => {
    const f = await hooksFixture();
    const payload: HookPayload = { ...PRE_BASH, event: 'PermissionRequest' };
    const allow = await f.run(payload, cmd('PermissionRequest', json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: { command: 'ls -a' } } } })));
    expect(allow.outcome).toMatchObject({ decision: 'allow', updatedInput: { command: 'ls -a' } });
    const deny = await f.run(payload, cmd('PermissionRequest', json({ hookSpecificOutput: { decision: { behavior: 'deny', message: 'not here' } } })));
    expect(deny.outcome).toMatchObject({ decision: 'deny', reason: 'not here' });
  });

  it('updatedInput rewrites the tool input', async () => {
    const f = await hooksFixture();
    const out = json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'ls --color=never' } } });
    const r = await f.run(PRE_BASH, cmd('PreToolUse', out));
    expect(r.outcome.updatedInput).toEqual({ command: 'ls --color=never' });
  });

  it('additionalContext reaches the model for PostToolUse (hookSpecificOutput) and UserPromptSubmit (top level)', async () => {
    const f = await hooksFixture();
    const post = await f.run({ ...PRE_BASH, event: 'PostToolUse', toolResponse: 'x' }, cmd('PostToolUse', json({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'lint: 2 warnings' } })));
    expect(post.outcome.additionalContext).toBe('lint: 2 warnings');
    const prompt = await f.run({ event: 'UserPromptSubmit', prompt: 'p' }, cmd('UserPromptSubmit', json({ additionalContext: 'ticket ABC-1' })));
    expect(prompt.outcome.additionalContext).toBe('ticket ABC-1');
    const stop = await f.run({ event: 'Stop', stopHookActive: false }, cmd('Stop', json({ additionalContext: 'x' })));
    expect(stop.outcome.additionalContext).toBeUndefined();
    expect(stop.outcome.userMessages[0]).toMatch(/additionalContext is not used by Stop; ignored/);
  });

  it('stdout that is JSON but not an object is plain text', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', `echo '["deny"]'`));
    expect(r.outcome).toEqual({ systemMessages: [], userMessages: ['["deny"]'], ran: 1 });
  });
});

describe('runHooks: several hooks', () => {
  const decide = (d: string, reason: string) => ({
    type: 'command',
    command: json({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: d, permissionDecisionReason: reason } }),
  });

  it('deny > ask > allow, with the reason of the winner only', async () => {
    const f = await hooksFixture();
    const all = await f.run(PRE_BASH, config({ PreToolUse: [{ matcher: 'bash', hooks: [decide('allow', 'A'), decide('deny', 'D'), decide('ask', 'Q')] }] }));
    expect(all.outcome).toMatchObject({ decision: 'deny', block: true, reason: 'D', ran: 3 });
    const askAllow = await f.run(PRE_BASH, config({ PreToolUse: [{ hooks: [decide('allow', 'A')] }, { matcher: '*', hooks: [decide('ask', 'Q')] }] }));
    expect(askAllow.outcome).toMatchObject({ decision: 'ask', reason: 'Q' });
    expect(askAllow.outcome.block).toBeUndefined();
    const allows = await f.run(PRE_BASH, config({ PreToolUse: [{ hooks: [decide('allow', 'A1'), decide('allow', 'A2')] }] }));
    expect(allows.outcome).toMatchObject({ decision: 'allow', reason: 'A1\nA2' });
  });

  it('an exit-2 block beats a JSON allow', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, config({ PreToolUse: [{ hooks: [decide('allow', 'A'), { type: 'command', command: 'echo stop >&2; exit 2' }] }] }));
    expect(r.outcome).toMatchObject({ decision: 'deny', block: true, reason: 'stop' });
  });

  it('takes the first updatedInput in config order, not finish order', async () => {
    const f = await hooksFixture();
    const upd = (c: string, wait: string) => ({
      type: 'command',
      command: `${wait}${json({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: c } } })}`,
      timeout: 5,
    });
    // The first hook waits for the second to finish writing, so it finishes last. (The polls
    // sleep so that the in-thread just-bash interpreter lets the other hook make progress.)
    const r = await f.run(
      PRE_BASH,
      config({ PreToolUse: [{ hooks: [upd('first', 'while [ ! -f /tmp/second ]; do sleep 0.01; done; '), upd('second', 'touch /tmp/second; ')] }] }),
    );
    expect(r.runs.map((e) => e.stdout.includes('"first"') ? 'first' : 'second')).toEqual(['second', 'first']);
    expect(r.outcome.updatedInput).toEqual({ command: 'first' });
  });

  it('joins contexts in config order and caps them at 10,000 characters with a note', async () => {
    const f = await hooksFixture();
    const small = await f.run({ event: 'UserPromptSubmit', prompt: 'p' }, config({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo one' }, { type: 'command', command: 'echo two' }] }] }));
    expect(small.outcome.additionalContext).toBe('one\n\ntwo');
    const big = await f.run({ event: 'UserPromptSubmit', prompt: 'p' }, cmd('UserPromptSubmit', `printf 'x%.0s' $(seq 1 12000)`));
    const ctx = big.outcome.additionalContext!;
    expect(ctx.startsWith('x'.repeat(MAX_ADDITIONAL_CONTEXT_CHARS) + '\n[hook context cut: 10,000 of 12,000 characters shown]')).toBe(true);
    expect(ctx.length).toBeLessThan(MAX_ADDITIONAL_CONTEXT_CHARS + 100);
  });

  it('runs matching hooks in parallel: two hooks that each wait for the other both finish', async () => {
    const f = await hooksFixture();
    // Run one after the other, the first would wait for a file that is never written and time out.
    // (The polls sleep so that the in-thread just-bash interpreter lets the other hook progress.)
    const r = await f.run(
      PRE_BASH,
      config({
        PreToolUse: [
          { matcher: 'bash', hooks: [{ type: 'command', command: 'touch /tmp/a; while [ ! -f /tmp/b ]; do sleep 0.01; done; echo A', timeout: 5 }] },
          { matcher: 'Bash', hooks: [{ type: 'command', command: 'while [ ! -f /tmp/a ]; do sleep 0.01; done; touch /tmp/b; echo B', timeout: 5 }] },
        ],
      }),
    );
    expect(r.runs.map((e) => [e.stdout, e.exitCode, e.timedOut])).toEqual(expect.arrayContaining([['A\n', 0, false], ['B\n', 0, false]]));
    expect(r.outcome.userMessages.sort()).toEqual(['A', 'B']);
  });

  it('a timed-out hook never blocks: it is a non-blocking error and the other hooks still decide', async () => {
    const f = await hooksFixture();
    const r = await f.run(
      PRE_BASH,
      config({ PreToolUse: [{ hooks: [{ type: 'command', command: 'sleep 30; exit 2', timeout: 0.2 }, decide('ask', 'check')] }] }),
    );
    const slow = r.runs.find((e) => e.hook.type === 'command' && e.hook.command.startsWith('sleep'))!;
    expect(slow).toMatchObject({ timedOut: true, exitCode: 124, decision: 'continue' });
    expect(r.outcome).toMatchObject({ decision: 'ask', reason: 'check' });
    expect(r.outcome.block).toBeUndefined();
    expect(r.outcome.userMessages).toEqual(['PreToolUse hook "sleep 30; exit 2" timed out after 0.2 s and was skipped; the agent goes on.']);
  });

  it('uses the default timeout when a hook sets none', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', 'sleep 30'), { defaultTimeoutS: 0.2 });
    expect(r.runs[0]).toMatchObject({ timedOut: true });
  });

  it('stops hooks when the run is aborted, as a non-blocking error', async () => {
    const f = await hooksFixture();
    const ac = new AbortController();
    ac.abort();
    const r = await f.run(PRE_BASH, cmd('PreToolUse', 'echo no >&2; exit 2'), { signal: ac.signal });
    expect(r.runs[0]).toMatchObject({ exitCode: 130 });
    expect(r.outcome.block).toBeUndefined();
  });

  it('runs an identical command once even when two groups list it', async () => {
    const f = await hooksFixture();
    const hook = { type: 'command', command: 'echo x >> /tmp/count' };
    const r = await f.run(PRE_BASH, config({ PreToolUse: [{ matcher: 'bash', hooks: [hook] }, { matcher: '*', hooks: [hook] }] }));
    expect(r.outcome.ran).toBe(1);
    expect(await f.sandbox.fs.readFile('/tmp/count')).toBe('x\n');
  });

  it('reports an invalid regex matcher once, skips its hooks, and still runs the others', async () => {
    const f = await hooksFixture();
    const cfg = config({ PreToolUse: [{ matcher: 'bash(', hooks: [{ type: 'command', command: 'exit 2' }] }, { matcher: 'bash', hooks: [{ type: 'command', command: 'echo ok' }] }] });
    const first = await f.run(PRE_BASH, cfg);
    expect(first.events[0]).toMatchObject({ type: 'hook.config_error', event: 'PreToolUse', matcher: 'bash(' });
    expect(first.outcome.block).toBeUndefined();
    expect(first.outcome.userMessages).toEqual([expect.stringMatching(/^PreToolUse hooks: matcher "bash\(" is not a valid regular expression/), 'ok']);
    const second = await f.run(PRE_BASH, cfg);
    expect(second.events.filter((e) => e.type === 'hook.config_error')).toEqual([]);
    expect(second.outcome.userMessages).toEqual(['ok']);
  });
});
