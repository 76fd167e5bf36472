/**
 * WorktreeCreate / WorktreeRemove around a subagent's isolated workspace (a blocking create hook
 * refuses the workspace), and TeammateIdle (exit 2 keeps a teammate working, at most 3 times in a row).
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, WORKDIR } from '../../src/harness/index.ts';
import { openChildWorkspace } from '../../src/harness/agents/subagents/child-workspace.ts';
import { teammateIdleHook, MAX_IDLE_BLOCKS } from '../../src/harness/agents/teams/idle-hook.ts';
import { buildHookInput, runHooks, type HookPayload, type HooksConfig } from '../../src/harness/hooks/index.ts';
import type { ToolContext } from '../../src/harness/tools/tool.ts';
import { FileState } from '../../src/harness/tools/file-state.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import type { SubagentDefinition } from '../../src/harness/agents/subagents/definitions.ts';

const session = { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' };

async function contextWith(config: HooksConfig) {
  const sandbox = await createJustBashSandbox({ files: { 'a.txt': 'a\n' } });
  const clock = new FakeClock();
  const runs: unknown[] = [];
  const hook = async (payload: HookPayload) => {
    const gen = runHooks(payload.event, buildHookInput(payload, session), config, { sandbox, clock });
    let step = await gen.next();
    while (!step.done) {
      runs.push(step.value);
      step = await gen.next();
    }
    return step.value;
  };
  const ctx = { sandbox, cwd: WORKDIR, signal: new AbortController().signal, files: new FileState(), clock, toolUseId: 't', onOutput: () => {}, hook } as unknown as ToolContext;
  return { ctx, runs, sandbox, clock };
}

const def = { name: 'general-purpose', description: 'd', system: 's', isolation: 'worktree' } as unknown as SubagentDefinition;
const input = { description: 'iso', prompt: 'p', isolation: 'worktree' } as never;

describe('WorktreeCreate / WorktreeRemove', () => {
  it('fire around an isolated workspace with its name and path', async () => {
    const { ctx, runs } = await contextWith({ WorktreeCreate: [{ hooks: [{ type: 'command', command: 'cat >/dev/null' }] }], WorktreeRemove: [{ hooks: [{ type: 'command', command: 'cat >/dev/null' }] }] });
    const ws = await openChildWorkspace(input, def, 'agent-1', ctx, async () => {});
    expect('error' in ws).toBe(false);
    if ('error' in ws) return;
    await ws.close();
    expect(runs.map((r) => (r as { input: unknown }).input)).toMatchObject([
      { hook_event_name: 'WorktreeCreate', name: 'agent-1' },
      { hook_event_name: 'WorktreeRemove', worktree_path: expect.stringContaining('agent-1') },
    ]);
  });

  it('a WorktreeCreate hook that exits 2 refuses the workspace', async () => {
    const { ctx } = await contextWith({ WorktreeCreate: [{ hooks: [{ type: 'command', command: 'echo "no worktrees on Fridays" >&2; exit 2' }] }] });
    const ws = await openChildWorkspace(input, def, 'agent-2', ctx, async () => {});
    expect(ws).toEqual({ error: 'a WorktreeCreate hook refused its isolated workspace: no worktrees on Fridays' });
  });
});

describe('TeammateIdle', () => {
  it('exit 2 keeps the teammate working with the reason, at most MAX_IDLE_BLOCKS times in a row', async () => {
    const { sandbox, clock } = await contextWith({});
    const hooks = { config: { TeammateIdle: [{ hooks: [{ type: 'command' as const, command: 'jq -r .teammate_name | grep -q bob && { echo "finish the tests" >&2; exit 2; }; exit 0' }] }] }, session };
    const bob = { name: 'bob' };
    const answers = [];
    for (let i = 0; i <= MAX_IDLE_BLOCKS; i++) answers.push(await teammateIdleHook(bob, 'team', { hooks, sandbox, clock }));
    expect(answers.slice(0, MAX_IDLE_BLOCKS).every((a) => a.keepWorking?.includes('finish the tests'))).toBe(true);
    expect(answers[MAX_IDLE_BLOCKS]!.keepWorking).toBeUndefined();
    expect(answers[0]!.events[0]).toMatchObject({ type: 'hook.run', event: 'TeammateIdle', input: { teammate_name: 'bob', team_name: 'team' } });
    const alice = await teammateIdleHook({ name: 'alice' }, 'team', { hooks, sandbox, clock });
    expect(alice.keepWorking).toBeUndefined();
  });
});
