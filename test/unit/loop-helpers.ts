/**
 * Shared set-up for loop tests: real just-bash sandbox, real scripted model, fake clock, and a
 * driver that pulls every event.
 */
import { z } from 'zod';
import {
  agentLoop,
  buildTool,
  builtinTools,
  FakeClock,
  SequentialIds,
  type AnyTool,
  type LoopInput,
  type Message,
  type RunResult,
  type TraceEvent,
  WORKDIR,
} from '../../src/harness/index.ts';
import { createScriptedClient, type ScriptedClient } from '../../src/model/scripted/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import type { LoopDeps } from '../../src/harness/loop/types.ts';
import { drainGenerator, ofType } from '../helpers/events.ts';

export type Setup = {
  client: ScriptedClient;
  clock: FakeClock;
  input: LoopInput;
  deps: LoopDeps;
};

export async function setup(
  turns: ScriptedTurn[],
  opts: { files?: Record<string, string>; tools?: AnyTool[]; input?: Partial<LoopInput>; prompt?: string } = {},
): Promise<Setup> {
  const clock = new FakeClock();
  const client = createScriptedClient(turns);
  const sandbox = await createJustBashSandbox({ files: opts.files ?? {} });
  const input: LoopInput = {
    messages: [{ role: 'user', content: opts.prompt ?? 'Do the task.' }],
    system: 'You are a test agent.',
    tools: opts.tools ?? builtinTools(),
    model: 'test-model',
    maxTokens: 1024,
    maxTurns: 20,
    // These tests are about the loop, not permissions: allow everything (the safety layer has its own tests).
    permissions: { mode: 'bypassPermissions', rules: [], workdir: WORKDIR },
    ...opts.input,
  };
  return { client, clock, input, deps: { model: client, sandbox, clock, ids: new SequentialIds() } };
}

/** Runs the loop to its end: every event and the result. */
export function drain(input: LoopInput, deps: LoopDeps): Promise<{ events: TraceEvent[]; result: RunResult }> {
  return drainGenerator(agentLoop(input, deps));
}

export { ofType };

export function transitions(events: TraceEvent[]): string[] {
  return ofType(events, 'transition').map((e) => e.reason);
}

/** The text of the last user message's text blocks (what the harness injected). */
export function lastUserText(messages: Message[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/**
 * A concurrency-safe tool that waits until `expected` calls are in flight at once (a barrier).
 * If calls ran one at a time the barrier could never fill; a 2 s guard turns that into a failed
 * assertion instead of a hang.
 */
export function barrierTool(expected: number, finishOrder: string[]): AnyTool {
  let inFlight = 0;
  let release: () => void = () => {};
  const filled = new Promise<void>((r) => (release = r));
  const finished = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const finishedSignal = (label: string) => {
    let entry = finished.get(label);
    if (!entry) {
      let resolve: () => void = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      finished.set(label, entry);
    }
    return entry;
  };
  return buildTool({
    name: 'probe',
    description: 'test probe',
    inputSchema: z.object({ label: z.string(), finishAfter: z.array(z.string()).default([]) }),
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    call: async ({ label, finishAfter }) => {
      inFlight++;
      if (inFlight === expected) release();
      const guard = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 2000));
      const met = await Promise.race([filled.then(() => 'met' as const), guard]);
      // Finish after the named labels, to make completion order differ from call order.
      await Promise.all(finishAfter.map((l) => finishedSignal(l).promise));
      finishOrder.push(label);
      finishedSignal(label).resolve();
      return { content: `${label}:${met}` };
    },
  });
}
