/**
 * Shared set-up for the hooks tests: a real just-bash sandbox, the real Node JS hook runner, a
 * FakeClock, and `run(event, payload, config)` that drains `runHooks` into its events + outcome.
 */
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { WORKDIR, type Sandbox } from '../../src/harness/ports.ts';
import { FakeClock } from '../../src/harness/clock.ts';
import type { TraceEventBody } from '../../src/harness/trace.ts';
import { createNodeJsHookRunner } from '../../src/hooks-runtime/node-runner.ts';
import {
  buildHookInput,
  parseHooksConfig,
  runHooks,
  type HookOutcome,
  type HookPayload,
  type HookRunEnv,
  type HooksConfig,
} from '../../src/harness/hooks/index.ts';

export const SESSION = { sessionId: 'sess_1', cwd: WORKDIR, permissionMode: 'default' };

export type HookRunResult = { events: TraceEventBody[]; runs: Extract<TraceEventBody, { type: 'hook.run' }>[]; outcome: HookOutcome };

export type HooksFixture = {
  sandbox: Sandbox;
  run(payload: HookPayload, config: unknown, env?: Partial<HookRunEnv>): Promise<HookRunResult>;
};

/** Validates `config` with the real schema first, so tests also exercise it. */
export function config(raw: unknown): HooksConfig {
  const parsed = parseHooksConfig(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

/** One command hook for one event: `{ [event]: [{ matcher, hooks: [{ type: 'command', command }] }] }`. */
export function cmd(event: string, command: string, matcher?: string, timeout?: number): HooksConfig {
  return config({ [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks: [{ type: 'command', command, ...(timeout ? { timeout } : {}) }] }] });
}

export const PRE_BASH: Extract<HookPayload, { event: 'PreToolUse' }> = { event: 'PreToolUse', toolName: 'bash', toolInput: { command: 'ls' }, toolUseId: 'toolu_1' };

export async function hooksFixture(files: Record<string, string> = {}): Promise<HooksFixture> {
  const sandbox = await createJustBashSandbox({ files });
  const jsRunner = createNodeJsHookRunner();
  return {
    sandbox,
    async run(payload, cfg, env = {}) {
      const input = buildHookInput(payload, SESSION);
      const gen = runHooks(payload.event, input, cfg as HooksConfig, { sandbox, jsRunner, clock: new FakeClock(), ...env });
      const events: TraceEventBody[] = [];
      let step = await gen.next();
      while (!step.done) {
        events.push(step.value);
        step = await gen.next();
      }
      const runs = events.filter((e): e is HookRunResult['runs'][number] => e.type === 'hook.run');
      return { events, runs, outcome: step.value };
    },
  };
}
