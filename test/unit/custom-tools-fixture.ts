/** Scenarios with custom tools for the custom-tool and golden tests: real sandbox, real runners. */
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import type { ModelClient } from '../../src/harness/ports.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import type { CustomToolInput } from '../../src/harness/tools/custom/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { parseScenario, type Scenario, type ScenarioInput } from '../../src/scenarios/schema.ts';
import { createNodeToolRunner } from '../../src/user-code/tools/node-tool-runner.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';

export const shoutTool: CustomToolInput = {
  name: 'shout',
  description: 'Upper-cases a text and saves it to shout.txt.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
  implementation: { kind: 'js', source: "const loud = input.text.toUpperCase() + '!';\nawait files.write('shout.txt', loud);\nreturn loud;" },
};

export const wcTool: CustomToolInput = {
  name: 'word_count',
  description: 'Counts the words of a project file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  readOnly: true,
  concurrencySafe: true,
  implementation: { kind: 'shell', command: 'f=$(jq -r .path); wc -w < "$f" | tr -d " "' },
};

export function scenarioWith(turns: ScriptedTurn[], settings: ScenarioInput['settings'] = {}, files: Record<string, string> = {}): Scenario {
  const r = parseScenario({ id: 'custom-test', title: 'custom tools test', prompt: 'go', files, model: { kind: 'scripted', turns }, settings });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

export async function runScenario(scenario: Scenario, opts: { trusted?: boolean; model?: ModelClient } = {}): Promise<{ events: TraceEvent[]; files: (p: string) => Promise<string> }> {
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({
    scenario,
    sandbox,
    clock: new FakeClock(),
    ids: new SequentialIds(),
    trusted: opts.trusted ?? true,
    toolRunner: createNodeToolRunner(),
    ...(opts.model ? { model: opts.model, modelId: 'claude-test' } : {}),
  });
  const events: TraceEvent[] = [];
  const gen = agentLoop(input, deps);
  for (let r = await gen.next(); !r.done; r = await gen.next()) events.push(r.value);
  return { events, files: (p) => sandbox.fs.readFile(`/home/project/${p}`) };
}

export const results = (events: TraceEvent[]) => events.flatMap((e) => (e.type === 'tool.result' ? [e] : []));
export const decisions = (events: TraceEvent[]) => events.flatMap((e) => (e.type === 'permission.decision' ? [e] : []));
