/**
 * How a scenario's golden cases are re-run (shared by the UI and the headless `golden` command):
 * each case gets a fresh sandbox holding the case's files, the scenario's CURRENT tools, rules
 * and hooks (so an edit is what is tested), and a scripted model that makes exactly the recorded
 * call and then stops. The permission prompt is answered as the person answered it when the
 * case was recorded (`promptAnswer`: allow once, deny, or nobody there), so the results compare —
 * only for a trusted document: an untrusted one's recorded answers are its own words, so its
 * calls that reach the prompt are denied, as with nobody there.
 */
import { FakeClock, SequentialIds } from '../harness/clock.ts';
import { GOLDEN_TOOL_USE_ID, type GoldenCase, type GoldenRunEnv } from '../harness/golden/index.ts';
import type { JsHookRunner, Sandbox, UserToolRunner } from '../harness/ports.ts';
import { createScriptedClient } from '../model/scripted/client.ts';
import { prepareRun } from './prepare.ts';
import type { Scenario } from '../scenarios/schema.ts';

export type GoldenEnvOptions = {
  makeSandbox: () => Promise<Sandbox>;
  /** Whether the scenario's hooks, allow rules and custom tools apply (as for a normal run). */
  trusted: boolean;
  toolRunner?: UserToolRunner;
  jsRunner?: JsHookRunner;
};

/** The scenario a case runs in: its settings, the case's files, no git seed, one short turn budget. */
export function goldenScenario(scenario: Scenario, c: GoldenCase): Scenario {
  const { git: _git, steering: _steering, ...settings } = scenario.settings;
  return { ...scenario, files: c.files, prompt: `Golden case: ${c.label}`, settings: { ...settings, maxTurns: 3 } };
}

export function scenarioGoldenEnv(scenario: Scenario, opts: GoldenEnvOptions): GoldenRunEnv {
  return {
    async start(c: GoldenCase) {
      const sandbox = await opts.makeSandbox();
      const model = createScriptedClient([
        { content: [{ type: 'tool_use', id: GOLDEN_TOOL_USE_ID, name: c.tool, input: c.input }] },
        { content: [{ type: 'text', text: 'Golden case done.' }] },
      ]);
      try {
        const { input, deps } = await prepareRun({
          scenario: goldenScenario(scenario, c),
          sandbox,
          model,
          modelId: 'scripted',
          clock: new FakeClock(),
          ids: new SequentialIds(),
          trusted: opts.trusted,
          // Nobody to ask (`none`): no prompter, so the pipeline denies as a headless run does. An
          // untrusted document's recorded "allow" is the document speaking, not the person: no answer is replayed.
          ...(c.promptAnswer === 'none' || !opts.trusted ? {} : { askPermission: async () => ({ decision: c.promptAnswer === 'deny' ? ('deny' as const) : ('allow_once' as const) }) }),
          sessionId: `golden-${c.id}`,
          ...(opts.toolRunner ? { toolRunner: opts.toolRunner } : {}),
          ...(opts.jsRunner ? { jsRunner: opts.jsRunner } : {}),
        });
        return { input, deps, dispose: () => sandbox.dispose() };
      } catch (e) {
        await sandbox.dispose().catch(() => {});
        throw e;
      }
    },
  };
}
