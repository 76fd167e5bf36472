/**
 * Team tools in live runs: a Settings toggle (persisted with the model preferences, off by
 * default) gives a live run the team tools too, not only scenarios that opt into `teams`. The
 * model-written-memories toggle is stored the same way.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { ALL_AGENT_FEATURES, liveAgentFeatures } from '../../src/run/prepare-agents.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { readPrefs } from '../../src/ui/state/settings.svelte.ts';

const storage = (data: Record<string, string>) => ({ getItem: (k: string) => data[k] ?? null });

describe('team tools in live runs', () => {
  it('the toggles are read back from the saved preferences; off when absent, refused when not booleans', () => {
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"mode":"anthropic","teamsLive":true,"memoryByModel":true}' })).prefs).toEqual({ mode: 'anthropic', teamsLive: true, memoryByModel: true });
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"mode":"anthropic"}' })).prefs.teamsLive).toBeUndefined();
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"teamsLive":"yes"}' })).notice).toMatch(/teamsLive/);
  });

  it('the pace of scripted replies is read back the same way; an unknown pace is refused with a notice', () => {
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"replayPace":"instant"}' })).prefs).toEqual({ replayPace: 'instant' });
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"mode":"scripted"}' })).prefs.replayPace).toBeUndefined();
    expect(readPrefs(storage({ 'hp.modelPrefs': '{"replayPace":"fast"}' })).notice).toMatch(/replayPace/);
  });

  it('with the toggle a live run of a scenario without teams gets every agent tool and the team tools', async () => {
    expect(liveAgentFeatures({ teamsLive: false })).toEqual(ALL_AGENT_FEATURES);
    expect(liveAgentFeatures({ teamsLive: true })).toEqual([...ALL_AGENT_FEATURES, 'teams']);
    const scenario = findBuiltinScenario('memory-claude-md')!;
    expect(scenario.settings.agentTools ?? []).not.toContain('teams');
    const names = async (teamsLive: boolean) => {
      const p = await prepareRun({
        scenario,
        sandbox: await createJustBashSandbox(),
        model: createScriptedClient([]),
        modelId: 'claude-sonnet-5-5',
        prompt: 'hello',
        clock: new FakeClock(0),
        ids: new SequentialIds(),
        agentTools: liveAgentFeatures({ teamsLive }),
      });
      return { tools: p.input.tools.map((t) => t.name), team: p.team };
    };
    const on = await names(true);
    expect(on.tools).toEqual(expect.arrayContaining(['spawn_teammate', 'send_message', 'read_inbox', 'task_create', 'agent', 'bash_output']));
    expect(on.team).toBeDefined();
    const off = await names(false);
    expect(off.tools).not.toContain('spawn_teammate');
    expect(off.tools).toContain('task_create');
  });
});
