/**
 * Subagent bench (`npx tsx test/bench/subagents.ts`): the main agent starts N = 1, 2, 4, 8
 * subagents in one turn. Every child's model takes a fixed time per call (a scripted model behind
 * a delay), and each child makes two calls around one bash call. The consumer pulls events as
 * fast as it can, as Run does. Printed: wall time of the whole run against the slowest child
 * (goal ≤ 1.2×: the children really run in parallel), and the harness's overhead per child (its
 * own time beyond the model's fixed time). Ratios within one run; nothing is asserted.
 */
import { agentLoop, builtinTools, realClock, SequentialIds, WORKDIR, type ModelClient, type TraceEvent } from '../../src/harness/index.ts';
import { agentToolPool } from '../../src/harness/agents/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const MODEL_MS = 150;
const CALLS_PER_CHILD = 2;
const REPEATS = 3;

/** A scripted model whose every call first takes `ms` (as a remote model would), then streams. */
function slowModel(turns: ScriptedTurn[], ms: number): ModelClient {
  const inner = createScriptedClient(turns);
  return {
    name: 'slow-scripted',
    async *stream(request, signal) {
      await realClock.sleep(ms, signal).catch(() => {});
      yield* inner.stream(request, signal);
    },
  };
}

async function once(n: number): Promise<{ wall: number; slowest: number; mean: number; events: number }> {
  const sandbox = await createJustBashSandbox({ files: { 'a.txt': 'a' } });
  const permissions = { mode: 'bypassPermissions' as const, rules: [], workdir: WORKDIR };
  const child = (i: number): ScriptedTurn[] => [
    { content: [{ type: 'tool_use', name: 'bash', input: { command: `echo child ${i}; cat a.txt` } }] },
    { content: [{ type: 'text', text: `child ${i} done` }] },
  ];
  const { tools } = await agentToolPool({
    sandbox,
    base: builtinTools,
    runtime: {
      modelFor: (c) => slowModel(child(Number(c.description.split(' ')[1])), MODEL_MS),
      modelId: 'bench',
      maxTokens: 1024,
      permissions,
    },
  });
  const main = createScriptedClient([
    { content: Array.from({ length: n }, (_, i) => ({ type: 'tool_use' as const, name: 'agent', input: { description: `task ${i}`, prompt: `Do task ${i}.` } })) },
    { content: [{ type: 'text', text: 'all done' }] },
  ]);
  const started = performance.now();
  const loop = agentLoop(
    { messages: [{ role: 'user', content: 'Run the tasks.' }], system: 'bench', tools, model: 'bench', maxTokens: 1024, maxTurns: 5, permissions },
    { model: main, sandbox, clock: realClock, ids: new SequentialIds() },
  );
  const events: TraceEvent[] = [];
  for (let step = await loop.next(); !step.done; step = await loop.next()) events.push(step.value);
  const wall = performance.now() - started;
  const stops = events.filter((e): e is Extract<TraceEvent, { type: 'subagent.stop' }> => e.type === 'subagent.stop');
  if (stops.length !== n || stops.some((s) => s.reason !== 'completed')) throw new Error(`bench run with N=${n} did not complete every child`);
  const ms = stops.map((s) => s.ms);
  return { wall, slowest: Math.max(...ms), mean: ms.reduce((a, b) => a + b, 0) / n, events: events.length };
}

const fmt = (x: number, d = 0) => x.toFixed(d).padStart(8);
console.log(`\nSubagents in parallel: each child makes ${CALLS_PER_CHILD} model calls of ${MODEL_MS} ms and one bash call (best of ${REPEATS})`);
console.log('    N   wall ms  slowest child ms  wall ÷ slowest  overhead per child ms  events');
await once(1); // warm up module loading and just-bash
for (const n of [1, 2, 4, 8]) {
  const runs = [];
  for (let r = 0; r < REPEATS; r++) runs.push(await once(n));
  const best = runs.reduce((a, b) => (b.wall < a.wall ? b : a));
  const overheadPerChild = best.mean - CALLS_PER_CHILD * MODEL_MS;
  console.log(
    `${String(n).padStart(5)}${fmt(best.wall)}${fmt(best.slowest).padStart(18)}${fmt(best.wall / best.slowest, 2).padStart(16)}${fmt(overheadPerChild, 1).padStart(23)}${String(best.events).padStart(8)}`,
  );
}
console.log('goal: wall ÷ slowest ≤ 1.20 (the main agent adds little beyond its slowest child).');
console.log(`overhead per child: a child's mean time beyond its ${CALLS_PER_CHILD} × ${MODEL_MS} ms of model time (its loop, bash call and the shared stream).\n`);
