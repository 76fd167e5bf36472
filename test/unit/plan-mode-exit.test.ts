/**
 * Plan mode as a workflow: in plan mode the agent presents its plan with `exit_plan_mode`
 * (Claude Code's ExitPlanMode); approval — a person, a PermissionRequest hook — switches the run to
 * `default` mode for its remaining calls; rejection, or headless with nobody to ask, keeps plan mode.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR } from '../../src/harness/index.ts';
import type { PromptRequest } from '../../src/harness/permissions/pipeline.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const plan = '1. Fix the sum in a.js\n2. Run the tests';
const turns = [
  { content: [{ type: 'tool_use' as const, id: 'p1', name: 'exit_plan_mode', input: { plan } }] },
  { content: [{ type: 'tool_use' as const, id: 'w1', name: 'bash', input: { command: 'echo fixed > a.js' } }] },
  { content: [{ type: 'text' as const, text: 'done' }] },
];
const planMode = { permissions: { mode: 'plan' as const, rules: [], workdir: WORKDIR } };

describe('exit_plan_mode', () => {
  it('is offered only in plan mode', async () => {
    const inPlan = await setup(turns, { input: planMode });
    await drain(inPlan.input, inPlan.deps);
    expect(inPlan.client.requests[0]!.tools!.map((t) => t.name)).toContain('exit_plan_mode');
    const notPlan = await setup([{ content: [{ type: 'text', text: 'hi' }] }]);
    await drain(notPlan.input, notPlan.deps);
    expect(notPlan.client.requests[0]!.tools!.map((t) => t.name)).not.toContain('exit_plan_mode');
  });

  it('a person approves the plan: the mode switches to default and the next edit is judged there', async () => {
    const s = await setup(turns, { input: planMode });
    const asked: PromptRequest[] = [];
    const { events, result } = await drain(s.input, { ...s.deps, prompt: async (r) => (asked.push(r), { decision: 'allow_once' }) });
    expect(asked[0]).toMatchObject({ name: 'exit_plan_mode', input: { plan } });
    expect(ofType(events, 'permission.mode_changed')).toMatchObject([{ from: 'plan', to: 'default' }]);
    // The edit after approval asks as default mode does (it was not refused by plan mode).
    expect(asked.map((r) => r.name)).toEqual(['exit_plan_mode', 'bash']);
    expect(await s.deps.sandbox.fs.readFile(`${WORKDIR}/a.js`)).toBe('fixed\n');
    expect(JSON.stringify(result.messages)).toContain('User has approved your plan');
    // The caller's permission context is untouched: the next run starts in plan mode again.
    expect(s.input.permissions!.mode).toBe('plan');
  });

  it('rejected, the run stays in plan mode and the edit is refused', async () => {
    const s = await setup(turns, { input: planMode });
    const { events } = await drain(s.input, { ...s.deps, prompt: async () => ({ decision: 'deny', message: 'add a test first' }) });
    expect(ofType(events, 'permission.mode_changed')).toHaveLength(0);
    const decisions = ofType(events, 'permission.decision');
    expect(decisions.map((d) => [d.name, d.decision, d.stage])).toEqual([
      ['exit_plan_mode', 'deny', 'prompt'],
      ['bash', 'deny', 'mode'],
    ]);
  });

  it('headless, a PermissionRequest hook can approve the plan', async () => {
    const s = await setup(turns, { input: planMode });
    const approve = 'echo \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\'';
    const { events } = await drain(s.input, {
      ...s.deps,
      hooks: { config: { PermissionRequest: [{ matcher: 'ExitPlanMode', hooks: [{ type: 'command', command: approve }] }] }, session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'plan' } },
    });
    expect(ofType(events, 'permission.mode_changed')).toMatchObject([{ from: 'plan', to: 'default' }]);
    // No person: the edit in default mode is denied headless (it would ask).
    expect(ofType(events, 'permission.decision').map((d) => [d.name, d.decision])).toEqual([
      ['exit_plan_mode', 'allow'],
      ['bash', 'deny'],
    ]);
  });

  it('headless with nobody to approve, the plan is denied and plan mode stays', async () => {
    const s = await setup(turns, { input: planMode });
    const { events } = await drain(s.input, s.deps);
    expect(ofType(events, 'permission.mode_changed')).toHaveLength(0);
    expect(ofType(events, 'permission.decision')[0]).toMatchObject({ name: 'exit_plan_mode', decision: 'deny', stage: 'prompt' });
  });
});
