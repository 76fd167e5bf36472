/**
 * Claude Code's hook semantics that touch permissions: a handler's `if` (permission-rule syntax)
 * decides whether it runs for a call; PermissionRequest hooks decide in headless runs too, and a
 * deny's message reaches the model.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR, type TraceEvent } from '../../src/harness/index.ts';
import { hookConditionHolds } from '../../src/harness/hooks/condition.ts';
import type { HooksConfig } from '../../src/harness/hooks/config.ts';
import type { HookInput } from '../../src/harness/hooks/input.ts';
import { parseSettings } from '../../src/harness/settings/index.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const toolInput = (tool_name: string, tool_input: unknown) =>
  ({ hook_event_name: 'PreToolUse', session_id: 's', cwd: WORKDIR, permission_mode: 'default', tool_name, tool_input, tool_use_id: 't' }) as unknown as HookInput;

type IfCase = [label: string, cond: string, tool: string, input: unknown, runs: boolean];

const ifCases: IfCase[] = [
  ['Bash(git *) runs for git push', 'Bash(git *)', 'bash', { command: 'git push origin main' }, true],
  ['Bash(git *) does not run for ls', 'Bash(git *)', 'bash', { command: 'ls -la' }, false],
  ['a compound command matches when any part does', 'Bash(git push *)', 'bash', { command: 'npm test && git push' }, true],
  ['a leading VAR=1 is looked through', 'Bash(git *)', 'bash', { command: 'GIT_TRACE=1 git status' }, true],
  ['a bare Bash names every command', 'Bash', 'bash', { command: 'echo hi' }, true],
  ['Bash(...) does not name another tool', 'Bash(git *)', 'edit', { file_path: 'a.ts' }, false],
  ['Edit(src/**) names an edit under src', 'Edit(src/**)', 'edit', { file_path: 'src/a/b.ts' }, true],
  ['Edit(src/**) names a write under src', 'Edit(src/**)', 'write', { file_path: 'src/x.ts', content: '' }, true],
  ['Edit(src/**) does not name docs/', 'Edit(src/**)', 'write', { file_path: 'docs/x.md', content: '' }, false],
  ['Read(.env) names cat .env', 'Read(.env)', 'bash', { command: 'cat .env' }, true],
  ['Read(.env) names a read of it', 'Read(.env)', 'read', { file_path: '.env' }, true],
  ['no condition: always runs', '', 'bash', { command: 'ls' }, true],
];

describe('hook handler "if" conditions', () => {
  it.each(ifCases)('%s', (_label, cond, tool, input, runs) => {
    expect(hookConditionHolds(cond === '' ? undefined : cond, toolInput(tool, input))).toBe(runs);
  });

  it('an "if" on a non-tool event is ignored (there is no call to test)', () => {
    const stop = { hook_event_name: 'Stop', session_id: 's', cwd: WORKDIR, permission_mode: 'default', stop_hook_active: false } as unknown as HookInput;
    expect(hookConditionHolds('Bash(git *)', stop)).toBe(true);
  });

  it('the settings schema keeps "if" and rejects one that is not a rule', () => {
    const good = parseSettings(JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', if: 'Bash(git *)' }] }] } }), 'json');
    expect(good.ok && good.settings.hooks?.PreToolUse?.[0]?.hooks[0]).toMatchObject({ if: 'Bash(git *)' });
    const bad = parseSettings(JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'x', if: 'Bash(git' }] }] } }), 'json');
    expect(!bad.ok && bad.errors[0]!.message).toMatch(/"if" takes a permission rule/);
  });

  it('in the loop, the guarded hook runs only for the calls its "if" names', async () => {
    const calls: ScriptedTurn[] = [
      { content: [{ type: 'tool_use', id: 'a', name: 'bash', input: { command: 'echo one' } }] },
      { content: [{ type: 'tool_use', id: 'b', name: 'bash', input: { command: 'echo two && git push' } }] },
      { content: [{ type: 'text', text: 'done' }] },
    ];
    const s = await setup(calls);
    const config: HooksConfig = {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', if: 'Bash(git push *)', command: 'echo "no pushing" >&2; exit 2' }] }],
    };
    const { events } = await drain(s.input, { ...s.deps, hooks: { config, session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'bypassPermissions' } } });
    expect(ofType(events, 'hook.run').map((h) => (h.input as { tool_use_id: string }).tool_use_id)).toEqual(['b']);
    const results = ofType(events, 'tool.result');
    expect(results.map((r) => r.isError)).toEqual([false, true]);
    expect(results[1]!.content).toMatch(/no pushing/);
  });
});

describe('PermissionRequest hooks decide where a person would', () => {
  const needsApproval: ScriptedTurn[] = [
    { content: [{ type: 'tool_use', id: 'x', name: 'bash', input: { command: 'touch made.txt' } }] },
    { content: [{ type: 'text', text: 'done' }] },
  ];
  const hook = (output: object): HooksConfig => ({
    PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${JSON.stringify(output)}'` }] }],
  });

  async function headless(config: HooksConfig) {
    const s = await setup(needsApproval, { input: { permissions: { mode: 'default', rules: [], workdir: WORKDIR } } });
    // no `prompt` in deps: a headless run
    const out = await drain(s.input, { ...s.deps, hooks: { config, session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' } } });
    return { ...out, sandbox: s.deps.sandbox };
  }
  const decisionOf = (events: TraceEvent[]) => ofType(events, 'permission.decision')[0]!;

  it('an allow lets the call run in a headless run', async () => {
    const { events, sandbox } = await headless(hook({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }));
    expect(decisionOf(events)).toMatchObject({ decision: 'allow', stage: 'prompt', decidedBy: { kind: 'hook' } });
    expect(await sandbox.fs.stat(`${WORKDIR}/made.txt`)).not.toBeNull();
  });

  it('an allow with updatedInput runs the rewritten input, validated and checked again', async () => {
    const allowWith = (updatedInput: object) => hook({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput } } });
    const ok = await headless(allowWith({ command: 'touch other.txt' }));
    expect(decisionOf(ok.events)).toMatchObject({ decision: 'allow', stage: 'prompt', reason: expect.stringContaining('input rewritten by the hook; checked again') });
    expect(await ok.sandbox.fs.stat(`${WORKDIR}/other.txt`)).not.toBeNull();
    expect(await ok.sandbox.fs.stat(`${WORKDIR}/made.txt`)).toBeNull();

    const bad = await headless(allowWith({ command: 42 }));
    expect(decisionOf(bad.events)).toMatchObject({ decision: 'deny', stage: 'prompt', decidedBy: { kind: 'hook' } });
    expect(JSON.stringify(bad.result.messages)).toContain('with a rewritten input, and the new input is invalid');
    expect(await bad.sandbox.fs.stat(`${WORKDIR}/made.txt`)).toBeNull();

    const s = await setup(needsApproval, { input: { permissions: { mode: 'default', rules: [{ behavior: 'deny', source: 'project', rule: { kind: 'tool', tool: 'Bash', specifier: 'rm *', text: 'Bash(rm *)' } }], workdir: WORKDIR } } });
    const denied = await drain(s.input, { ...s.deps, hooks: { config: allowWith({ command: 'rm -rf src' }), session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' } } });
    expect(decisionOf(denied.events)).toMatchObject({ decision: 'deny', reason: expect.stringContaining('the new input is denied') });
  });

  it("a deny's message reaches the model as the tool result", async () => {
    const { events, result, sandbox } = await headless(hook({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'use the build script instead' } } }));
    expect(decisionOf(events)).toMatchObject({ decision: 'deny', stage: 'prompt', decidedBy: { kind: 'hook' } });
    const sent = JSON.stringify(result.messages);
    expect(sent).toContain('use the build script instead');
    expect(sent).not.toContain('there is no one to ask');
    expect(await sandbox.fs.stat(`${WORKDIR}/made.txt`)).toBeNull();
  });

  it('a hook that decides nothing leaves the headless deny in place', async () => {
    const { events } = await headless(hook({}));
    expect(decisionOf(events)).toMatchObject({ decision: 'deny', stage: 'prompt', decidedBy: { kind: 'default', text: 'headless' } });
  });

  it('with a person present, the hook still answers first and no one is asked', async () => {
    const s = await setup(needsApproval, { input: { permissions: { mode: 'default', rules: [], workdir: WORKDIR } } });
    let asked = 0;
    const { events } = await drain(s.input, {
      ...s.deps,
      prompt: async () => {
        asked++;
        return { decision: 'allow_once' };
      },
      hooks: { config: hook({ hookSpecificOutput: { decision: { behavior: 'deny', message: 'not today' } } }), session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' } },
    });
    expect(asked).toBe(0);
    expect(ofType(events, 'permission.prompt')).toHaveLength(0);
    expect(ofType(events, 'tool.result')[0]!.content).toMatch(/PermissionRequest hook denied it: not today/);
  });
});
