/**
 * Deferred-tools bench (`npx tsx test/bench/deferred-tools.ts`, part of `npm run bench`): a
 * 30-turn coding session (reads, greps, edits, test runs) with the tool set a live run gets
 * (built-ins and every agent tool), run through the real loop with the scripted model and its
 * simulated prompt cache, three ways:
 * - all tools attached (every schema in every request);
 * - deferred, never loaded (the session never needs an agent tool);
 * - deferred, `todo_write` loaded with `tool_search` at turn 10 (one cache break for the load).
 * Reported: tool-prefix bytes of the first request and cost-weighted input (uncached + 1.25 × cache
 * write + 0.1 × cache read). Ratios within one run; nothing is asserted.
 */
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { ALL_AGENT_FEATURES } from '../../src/run/prepare-agents.ts';
import { parseScenario } from '../../src/scenarios/schema.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';

const FILES: Record<string, string> = Object.fromEntries(
  Array.from({ length: 8 }, (_, i) => [`src/mod${i}.ts`, Array.from({ length: 120 }, (_, l) => `export const v${i}_${l} = ${l} * ${i + 1}; // line ${l}`).join('\n') + '\n']),
);

const todo = (status: string) => ({ content: [{ type: 'tool_use' as const, name: 'todo_write', input: { todos: [{ content: 'refactor', status, activeForm: 'Refactoring' }] } }] });

/** 30 model turns: read, grep, run, edit in turn; `loadAt` inserts a tool_search before the first todo_write. */
function script(withTodo: boolean, load: boolean): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let i = 0; turns.length < 29; i++) {
    const f = `src/mod${i % 8}.ts`;
    if (withTodo && i === 10) {
      if (load) turns.push({ content: [{ type: 'tool_use', name: 'tool_search', input: { query: 'select:todo_write' } }] });
      turns.push(todo('in_progress'));
      continue;
    }
    const kind = i % 4;
    if (kind === 0) turns.push({ content: [{ type: 'tool_use', name: 'read', input: { file_path: `/home/project/${f}` } }] });
    else if (kind === 1) turns.push({ content: [{ type: 'tool_use', name: 'grep', input: { pattern: `v${i % 8}_1`, path: 'src' } }] });
    else if (kind === 2) turns.push({ content: [{ type: 'tool_use', name: 'bash', input: { command: `wc -l ${f} && head -40 ${f}` } }] });
    else turns.push({ content: [{ type: 'tool_use', name: 'edit', input: { file_path: `/home/project/${f}`, old_string: `// line ${i}\n`, new_string: `// line ${i} (checked)\n` } }] });
  }
  turns.push({ content: [{ type: 'text', text: 'Refactor done.' }] });
  return turns;
}

type Row = { name: string; toolBytes: number; tools: number; requests: number; weighted: number; read: number; creation: number; uncached: number };

async function run(name: string, turns: ScriptedTurn[], deferTools: boolean): Promise<Row> {
  const parsed = parseScenario({ id: 'bench-defer', title: 'deferred tools bench', prompt: 'Refactor the modules.', files: FILES, model: { kind: 'scripted', turns }, settings: { maxTurns: 60, deferTools, agentTools: ALL_AGENT_FEATURES, permissions: { defaultMode: 'acceptEdits' } } });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({ scenario: parsed.scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  const events: TraceEvent[] = [];
  const gen = agentLoop(input, deps);
  for (let r = await gen.next(); !r.done; r = await gen.next()) events.push(r.value);
  const requests = events.flatMap((e) => (e.type === 'model.request' ? [e.request] : []));
  const stats = events.flatMap((e) => (e.type === 'cache.stats' ? [e] : []));
  const read = stats.reduce((n, s) => n + s.read, 0);
  const creation = stats.reduce((n, s) => n + s.creation, 0);
  const uncached = stats.reduce((n, s) => n + s.uncached, 0);
  const first = requests[0]!;
  return { name, toolBytes: JSON.stringify(first.tools ?? []).length, tools: (first.tools ?? []).length, requests: requests.length, weighted: uncached + 1.25 * creation + 0.1 * read, read, creation, uncached };
}

export async function deferredToolsRows(): Promise<Row[]> {
  return [
    await run('all tools attached', script(true, false), false),
    await run('deferred, never loaded', script(false, false), true),
    await run('deferred, todo_write loaded at turn 10', script(true, true), true),
  ];
}

async function main() {
  const rows = await deferredToolsRows();
  const base = rows[0]!.weighted;
  const pad = (v: string | number, n: number) => String(v).padStart(n);
  console.log('Deferred tools: a 30-turn coding session with a live run\'s tool set (built-ins + every agent tool)\n');
  console.log(`${'variant'.padEnd(40)} ${pad('tools', 6)} ${pad('tool bytes', 11)} ${pad('requests', 9)} ${pad('cost-wtd input', 15)} ${pad('× all', 6)}`);
  for (const r of rows) console.log(`${r.name.padEnd(40)} ${pad(r.tools, 6)} ${pad(r.toolBytes.toLocaleString('en-US'), 11)} ${pad(r.requests, 9)} ${pad(Math.round(r.weighted).toLocaleString('en-US'), 15)} ${pad((r.weighted / base).toFixed(2), 6)}`);
  console.log('\ntool bytes = JSON of the first request\'s tool list; cost-wtd input = uncached + 1.25 × cache writes + 0.1 × cache reads.');
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
