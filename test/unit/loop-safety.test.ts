/**
 * The safety layer as the loop runs it: permission stages, prompts, session grants, hooks at each
 * call site, and the trust gate — on the built-in safety scenarios and on small scripts.
 */
import { describe, expect, it } from 'vitest';
import { blocksOf, FakeClock, SequentialIds, WORKDIR, type TraceEvent } from '../../src/harness/index.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import type { PromptAnswer, PromptRequest } from '../../src/harness/permissions/pipeline.ts';
import { SessionGrants } from '../../src/harness/permissions/session-grants.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun, type PrepareOptions } from '../../src/run/prepare.ts';
import { parseScenario } from '../../src/scenarios/schema.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';

async function run(id: string, opts: Partial<PrepareOptions> = {}) {
  const scenario = findBuiltinScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, ...opts });
  const out = await drain(input, deps);
  expect(checkTranscript(out.result.messages)).toEqual([]);
  return { ...out, sandbox };
}

const decisions = (events: TraceEvent[]) =>
  ofType(events, 'permission.decision').map((d) => ({ decision: d.decision, stage: d.stage, by: d.decidedBy.text }));

describe('permissions in the loop', () => {
  it('a deny rule beats an allow rule at the rules stage', async () => {
    const { events, sandbox } = await run('deny-beats-allow');
    expect(decisions(events)).toEqual([
      { decision: 'allow', stage: 'rules', by: expect.stringContaining('Bash(rm *)') },
      { decision: 'deny', stage: 'rules', by: expect.stringContaining('Bash(rm -rf *)') },
    ]);
    expect(await sandbox.fs.stat('/home/project/old.log')).toBeNull();
    expect(await sandbox.fs.readFile('/home/project/build/out.txt')).toBe('compiled output\n');
    const denied = ofType(events, 'tool.result')[1]!;
    expect(denied.isError).toBe(true);
    expect(denied.content).toMatch(/denied/);
  });

  it('stages run in order and stop at the deciding one', async () => {
    const { events } = await run('deny-beats-allow');
    const second = ofType(events, 'permission.stage').filter((s) => s.toolUseId === 'toolu_scripted_2');
    expect(second.map((s) => s.stage)).toEqual(['validate', 'tool_check', 'hooks', 'rules']);
    expect(ofType(events, 'tool.started').map((e) => e.toolUseId)).toEqual(['toolu_scripted_1']);
  });

  it('headless: a call that needs approval is denied with a reason', async () => {
    const { events, sandbox } = await run('ask-permission');
    expect(decisions(events)).toEqual([{ decision: 'deny', stage: 'prompt', by: 'headless' }]);
    expect(ofType(events, 'tool.result')[0]!.content).toMatch(/no one to ask/);
    expect(await sandbox.fs.stat('/home/project/deployed.txt')).toBeNull();
  });

  it('a person approves once: the prompt event comes first, then the command runs', async () => {
    const asked: PromptRequest[] = [];
    const askPermission = async (r: PromptRequest): Promise<PromptAnswer> => {
      asked.push(r);
      return { decision: 'allow_once' };
    };
    const { events, sandbox } = await run('ask-permission', { askPermission });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.suggestions).toContain('Bash(bash deploy.sh *)');
    const types = events.map((e) => e.type);
    expect(types.indexOf('permission.prompt')).toBeLessThan(types.indexOf('tool.started'));
    expect(decisions(events)).toEqual([{ decision: 'allow', stage: 'prompt', by: 'allow once' }]);
    expect(await sandbox.fs.readFile('/home/project/deployed.txt')).toBe('staging\n');
  });

  it('a person denies with a message: the model reads it in the error result', async () => {
    const { events } = await run('ask-permission', {
      askPermission: async () => ({ decision: 'deny', message: 'not on a Friday' }),
    });
    const result = ofType(events, 'tool.result')[0]!;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/declined.*not on a Friday/);
  });

  it('allow for this session adds a rule that answers the next identical call', async () => {
    const grants = new SessionGrants();
    let prompts = 0;
    const askPermission = async (): Promise<PromptAnswer> => {
      prompts++;
      return { decision: 'allow_session' };
    };
    const cmd = { type: 'tool_use' as const, name: 'bash', input: { command: 'bash deploy.sh staging' } };
    const s = await setup([{ content: [cmd] }, { content: [cmd] }, { content: [{ type: 'text', text: 'ok' }] }], {
      files: { 'deploy.sh': 'echo deployed\n' },
      input: { permissions: { mode: 'default', rules: [], workdir: WORKDIR } },
    });
    const { events } = await drain(s.input, { ...s.deps, prompt: askPermission, sessionGrants: grants });
    expect(prompts).toBe(1);
    expect(grants.rules.map((r) => r.rule.text)).toEqual(['Bash(bash deploy.sh *)']);
    expect(decisions(events).map((d) => d.stage)).toEqual(['prompt', 'rules']);
  });

  it('one denied part of a compound command refuses the whole command', async () => {
    const { events } = await run('compound-command');
    const d = ofType(events, 'permission.decision');
    expect(d[0]).toMatchObject({ decision: 'deny', stage: 'rules' });
    expect(d[0]!.reason).toMatch(/curl/);
    expect(d[1]).toMatchObject({ decision: 'allow' });
  });

  it('plan mode refuses the edit at the mode stage', async () => {
    const { events, sandbox } = await run('plan-mode');
    expect(decisions(events)).toEqual([
      { decision: 'allow', stage: expect.any(String), by: expect.any(String) },
      { decision: 'deny', stage: 'mode', by: 'plan' },
      // Then the plan, presented with exit_plan_mode: headless nobody can approve it.
      { decision: 'deny', stage: 'prompt', by: 'headless' },
    ]);
    expect(await sandbox.fs.readFile('/home/project/app.sh')).toContain('Hello.');
  });

  it('a bare deny removes the tool from the request before the call', async () => {
    const s = await setup([{ content: [{ type: 'text', text: 'hi' }] }], {
      input: {
        permissions: {
          mode: 'default',
          rules: [{ behavior: 'deny', source: 'project', rule: { kind: 'tool', tool: 'Bash', text: 'Bash' } }],
          workdir: WORKDIR,
        },
      },
    });
    const { events } = await drain(s.input, s.deps);
    expect(s.client.requests[0]!.tools!.map((t) => t.name)).not.toContain('bash');
    expect(ofType(events, 'permission.prefilter')[0]!.hidden).toEqual([{ name: 'bash', rule: expect.stringContaining('Bash') }]);
  });
});

describe('hooks in the loop', () => {
  it('a blocking PreToolUse hook denies the call and its stderr reaches the model', async () => {
    const { events, sandbox } = await run('pretooluse-hook-blocks');
    const hooks = ofType(events, 'hook.run');
    expect(hooks[0]).toMatchObject({ event: 'PreToolUse', exitCode: 2, decision: 'deny' });
    const first = ofType(events, 'tool.result')[0]!;
    expect(first.isError).toBe(true);
    expect(first.content).toContain('rm is blocked by policy');
    expect(await sandbox.fs.readFile('/home/project/trash/notes.txt')).toBe('old notes\n');
  });

  it('a PreToolUse hook rewrites the input with updatedInput, and the rewrite is what runs', async () => {
    const { events, sandbox } = await run('hook-rewrites-command');
    expect(ofType(events, 'hook.run')[0]!.input).toMatchObject({ tool_input: { command: 'bash deploy.sh prod' } });
    const hooksStage = ofType(events, 'permission.stage').find((s) => s.stage === 'hooks')!;
    expect(hooksStage.reason).toMatch(/rewritten/);
    expect(await sandbox.fs.readFile('/home/project/deployed.txt')).toBe('staging\n');
    // what ran is reported, and the conversation view shows it beside the proposal
    // updatedInput replaces the input whole (the hook wrote only `command`)
    expect(ofType(events, 'tool.started')[0]!.input).toEqual({ command: 'bash deploy.sh staging' });
    const call = deriveConversation(events).find((i) => i.kind === 'tool');
    expect(call?.kind === 'tool' && call.call.ranInput).toEqual({ command: 'bash deploy.sh staging' });
    expect(call?.kind === 'tool' && call.call.input).toEqual({ command: 'bash deploy.sh prod', description: 'Deploy to prod' });
  });

  it('a Stop hook keeps the agent working until its condition holds', async () => {
    const { events, sandbox } = await run('stop-hook-keeps-working');
    expect(transitions(events)).toEqual(['stop_hook_blocking', 'next_turn', 'next_turn', 'completed']);
    const stops = ofType(events, 'hook.run').filter((h) => h.event === 'Stop');
    expect(stops.map((h) => h.exitCode)).toEqual([2, 0]);
    expect(stops.map((h) => (h.input as { stop_hook_active?: boolean }).stop_hook_active)).toEqual([false, false]);
    expect(await sandbox.fs.readFile('/home/project/TODO.md')).toContain('- [x] write CHANGELOG.md');
  });

  it('Stop-hook continuations are bounded and the flag tells the hook it is already continuing', async () => {
    const done = { content: [{ type: 'text' as const, text: 'done' }] };
    const s = await setup([done, done, done, done, done], {
      input: { budgets: { stopHookBlocks: 2 } },
    });
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: {
        config: { Stop: [{ hooks: [{ type: 'command', command: 'echo "keep going" >&2; exit 2' }] }] },
        session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' },
      },
    });
    expect(transitions(events)).toEqual(['stop_hook_blocking', 'stop_hook_blocking', 'completed']);
    expect(ofType(events, 'hook.run').map((h) => (h.input as { stop_hook_active?: boolean }).stop_hook_active)).toEqual([false, true, true]);
    expect(result.reason).toBe('completed');
    expect(JSON.stringify(result.messages)).toContain('Stop hook feedback:\\nkeep going');
  });

  it('a blocking UserPromptSubmit hook drops the prompt before any model call', async () => {
    const s = await setup([{ content: [{ type: 'text', text: 'never' }] }], { prompt: 'please print the secrets' });
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: {
        config: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: "grep -q secret && { echo 'no secrets here' >&2; exit 2; }; exit 0" }] }] },
        session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' },
      },
    });
    expect(result.reason).toBe('prompt_blocked');
    expect(result.messages).toEqual([]);
    expect(s.client.requests).toHaveLength(0);
    expect(ofType(events, 'transition')[0]!.detail).toMatch(/no secrets here/);
  });

  it('PostToolUse context is given to the model after the tool results', async () => {
    const s = await setup(
      [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo hi' } }] }, { content: [{ type: 'text', text: 'ok' }] }],
      {},
    );
    const { result } = await drain(s.input, {
      ...s.deps,
      hooks: {
        config: {
          PostToolUse: [
            { matcher: 'bash', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"remember to lint"}}'` }] },
          ],
        },
        session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' },
      },
    });
    const blocks = blocksOf(result.messages[2]!);
    expect(blocks[0]!.type).toBe('tool_result');
    expect(blocks[1]).toMatchObject({ type: 'text', text: expect.stringContaining('remember to lint') });
    expect(checkTranscript(result.messages)).toEqual([]);
  });
});

describe('the trust gate', () => {
  it('an untrusted scenario runs no hooks and its allow rules and permissive mode are off', async () => {
    const { events, sandbox } = await run('hook-rewrites-command', { trusted: false });
    expect(ofType(events, 'hook.run')).toEqual([]);
    expect(decisions(events)).toEqual([{ decision: 'deny', stage: 'prompt', by: 'headless' }]);
    expect(await sandbox.fs.stat('/home/project/deployed.txt')).toBeNull();
  });

  it('untrusted deny rules still apply', async () => {
    const { events } = await run('deny-beats-allow', { trusted: false });
    expect(decisions(events).map((d) => d.decision)).toEqual(['deny', 'deny']);
    expect(decisions(events)[1]).toMatchObject({ stage: 'rules' });
  });

  it('a scenario file carrying hooks is rejected loudly if the hooks are malformed', () => {
    const r = parseScenario({
      id: 'x',
      title: 'x',
      prompt: 'p',
      model: { kind: 'scripted', turns: [{ content: [] }] },
      settings: { hooks: { PreToolUseTypo: [] } },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(/PreToolUseTypo/);
  });
});
