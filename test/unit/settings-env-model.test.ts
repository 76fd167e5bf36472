/**
 * Issue 19 §4: settings' `env` and `model` are honoured where they make sense — `env` is the
 * environment of the run's commands, `model` the model of a live run nobody chose one for — and,
 * like hooks and allow rules, only once the document is trusted.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import type { Scenario } from '../../src/scenarios/schema.ts';
import { drain } from './loop-helpers.ts';

const settingsFile = `${JSON.stringify({ env: { GREETING: 'hi-from-settings' }, model: 'claude-from-settings' }, null, 2)}\n`;

function scenario(): Scenario {
  const base = findBuiltinScenario('fix-a-bug')!;
  return {
    ...base,
    files: { ...base.files, '.claude/settings.json': settingsFile },
    model: { kind: 'scripted', turns: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo "G=$GREETING"' } }] }, { content: [{ type: 'text', text: 'done' }] }] },
  };
}

const bashOutput = (events: TraceEvent[]) => events.find((e): e is Extract<TraceEvent, { type: 'tool.result' }> => e.type === 'tool.result' && e.name === 'bash')!.content;

describe('settings env and model', () => {
  it('env reaches the commands of a trusted run', async () => {
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: scenario(), sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, mode: 'bypassPermissions' });
    const { events } = await drain(input, deps);
    expect(bashOutput(events)).toContain('G=hi-from-settings');
  });

  it('an untrusted document sets no env', async () => {
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: scenario(), sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: false, mode: 'bypassPermissions' });
    const { events } = await drain(input, deps);
    expect(bashOutput(events)).toMatch(/G=\s*$/m);
  });

  it('model picks the live model when nobody chose one; a chosen model wins', async () => {
    const live: Scenario = { ...scenario(), model: { kind: 'anthropic', model: 'claude-scenario-default' } };
    const run = async (modelId?: string, trusted = true) => {
      const sandbox = await createJustBashSandbox();
      const { input } = await prepareRun({ scenario: live, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted, model: createScriptedClient([]), ...(modelId ? { modelId } : {}) });
      return input.model;
    };
    expect(await run()).toBe('claude-from-settings');
    expect(await run('claude-you-chose')).toBe('claude-you-chose');
    expect(await run(undefined, false)).toBe('claude-scenario-default');
  });
});
