/**
 * Per-turn CPU of the cache accounting (`npx tsx test/bench/cache-cpu.ts`, part of `npm run bench`):
 * after every response the loop diffs the request with the one before (`recordCacheUsage` →
 * `cacheBreakDiff`) and the scripted model simulates the cache (`simulateCacheUsage`). Both walk
 * the linearised request; each request is linearised once and message parts are memoised, so the
 * µs per turn per message column stays flat as the history grows from 100 to 1,000 turns.
 */
import type { Message, ModelRequest } from '../../src/harness/messages.ts';
import { placeBreakpoints } from '../../src/harness/context/cache.ts';
import { recordCacheUsage } from '../../src/harness/context/pipeline.ts';
import { emptyContextState } from '../../src/harness/context/state.ts';
import { emptyCacheSim, simulateCacheUsage } from '../../src/harness/context/cache-sim.ts';
import { exchange, SYSTEM, tools } from '../unit/context-fixtures.ts';

export async function cacheCpuRows(turnCounts = [100, 1_000], timed = 50): Promise<{ turns: number; messages: number; usPerTurn: number; usPerTurnPerMessage: number }[]> {
  const rows = [];
  for (const turns of turnCounts) {
    let messages: Message[] = [{ role: 'user', content: 'task' }];
    for (let i = 0; i < turns; i++) messages = [...messages, ...exchange([800], { name: 'bash' })];
    let sim = emptyCacheSim();
    let state = emptyContextState();
    let prev: ModelRequest | undefined;
    const turn = () => {
      const request: ModelRequest = { model: 'm', max_tokens: 1, ...placeBreakpoints({ system: [{ type: 'text', text: SYSTEM }], tools, messages }) };
      const s = simulateCacheUsage(sim, request);
      sim = s.next;
      state = recordCacheUsage(state, s.usage, { ...(prev ? { prev } : {}), current: request }).state;
      prev = request;
      messages = [...messages, ...exchange([800], { name: 'bash' })];
    };
    for (let i = 0; i < 5; i++) turn(); // warm-up: JIT, memo tables
    const t0 = performance.now();
    for (let i = 0; i < timed; i++) turn();
    const us = ((performance.now() - t0) * 1000) / timed;
    rows.push({ turns, messages: messages.length, usPerTurn: us, usPerTurnPerMessage: us / messages.length });
  }
  return rows;
}

async function main() {
  const rows = await cacheCpuRows();
  console.log('Cache accounting per turn (break diff + simulated cache): a history of N turns, then 50 timed turns\n');
  console.log(`${'turns'.padStart(6)} ${'msgs (end)'.padStart(9)} ${'µs/turn'.padStart(9)} ${'µs/turn/msg'.padStart(12)}`);
  for (const r of rows) console.log(`${String(r.turns).padStart(6)} ${String(r.messages).padStart(9)} ${r.usPerTurn.toFixed(0).padStart(9)} ${r.usPerTurnPerMessage.toFixed(2).padStart(12)}`);
  console.log('A flat µs/turn/msg column: the per-turn work grows no faster than the history itself.\n');
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
