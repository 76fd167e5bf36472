/**
 * Decay by reference (seed 000: "relevance and decay by reference count"): each run a memory is
 * given counts a reference; an idle memory's words count less (×0.5 per 30 idle days, floor ×0.25),
 * a used one gets a small bonus; an extracted memory unused for 90 days with fewer than 2 references
 * is pruned and listed as `decayed`. And the memory-extraction call is priced as its own
 * `memory_extraction` line in the cost ledger. Real in-memory store, real scripted model, real loop.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type MemoryEntry } from '../../src/harness/index.ts';
import { decayOf, parseEntry, prepareMemory, rankMemories, taggingStore, DECAY_FLOOR } from '../../src/harness/memory/index.ts';
import { costOfEvents, costSummaryLines, DEFAULT_PRICE_TABLE } from '../../src/harness/cost/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = 400 * DAY;
const mem = (id: string, content: string, extra: Partial<MemoryEntry> = {}): MemoryEntry => ({ id, content, source: 'extracted', createdAt: NOW - 100 * DAY, updatedAt: NOW - 100 * DAY, ...extra });

describe('ranking with decay', () => {
  it('of two memories with the same words, the one used lately ranks first; idle halves every 30 days, floor 0.25', () => {
    const used = mem('a', 'Deploy with the deploy script.', { references: 3, lastReferencedAt: NOW - DAY });
    const idle = mem('b', 'Deploy with the deploy script!', { references: 0 });
    const [first, second] = rankMemories([idle, used], 'how do we deploy', NOW);
    expect(first!.entry.id).toBe('a');
    expect(first!.use).toBeCloseTo(0.05 * Math.log2(4), 3);
    expect(second!.decay).toBe(DECAY_FLOOR);
    expect(second!.keyword).toBeLessThan(first!.keyword);
    expect(decayOf(mem('c', 'x', { lastReferencedAt: NOW - 30 * DAY }), NOW)).toBeCloseTo(0.5, 6);
    expect(decayOf(mem('c', 'x', { lastReferencedAt: NOW }), NOW)).toBe(1);
  });

  it('an entry keeps its reference count through parseEntry (every store), and rejects a bad one', () => {
    expect(parseEntry(mem('a', 'x', { references: 2, lastReferencedAt: 5 }))).toMatchObject({ references: 2, lastReferencedAt: 5 });
    expect(parseEntry({ ...mem('a', 'x'), references: -1 })).toMatch(/references must be a count/);
  });
});

describe('prepareMemory counts references and prunes decayed memories', () => {
  it('chosen memories count one more use; an extracted one idle 90 days with < 2 uses is pruned and listed as decayed', async () => {
    const store = new InMemoryMemoryStore();
    await store.put(mem('fresh', 'Run the tests with vitest.', { updatedAt: NOW - DAY }));
    await store.put(mem('stale', 'The tests once used jest.'));
    await store.put(mem('kept-by-use', 'Tests live in test/unit.', { references: 2 }));
    await store.put(mem('explicit', 'Tests must pass before a commit.', { source: 'explicit' }));
    const sandbox = await createJustBashSandbox();
    const sel = await prepareMemory({ fs: sandbox.fs, cwd: sandbox.workdir, store, prompt: 'run the tests', now: NOW });

    expect(sel.event.left.filter((l) => l.reason === 'decayed').map((l) => l.id)).toEqual(['stale']);
    expect(await store.get('stale')).toBeNull();
    const chosen = sel.event.chosen.map((c) => c.id);
    expect(chosen).toEqual(expect.arrayContaining(['fresh', 'kept-by-use', 'explicit']));
    expect(sel.text).not.toContain('jest');
    // The ranking is visible: the idle ones carry their decay, the used one its earlier uses.
    expect(sel.event.chosen.find((c) => c.id === 'kept-by-use')).toMatchObject({ references: 2, decay: DECAY_FLOOR });
    // Each chosen memory counted a use, dated now.
    expect(await store.get('fresh')).toMatchObject({ references: 1, lastReferencedAt: NOW });
    expect(await store.get('kept-by-use')).toMatchObject({ references: 3, lastReferencedAt: NOW });
    // Used now, the explicit one starts fresh: full weight at the next prompt.
    expect(decayOf((await store.get('explicit'))!, NOW)).toBe(1);
  });
});

describe('the memory-extraction call in the cost ledger', () => {
  it('is priced as its own memory_extraction line and counted in the run total', async () => {
    const store = new InMemoryMemoryStore();
    const extractor = createScriptedClient([{ content: [{ type: 'text', text: '{"fact": "The project uses pnpm."}' }], usage: { input_tokens: 2000, output_tokens: 100 } }]);
    const s = await setup([{ content: [{ type: 'text', text: 'Installed.' }], usage: { input_tokens: 1000, output_tokens: 50 } }], { prompt: 'Install the deps.' });
    const { events } = await drain(s.input, { ...s.deps, clock: new FakeClock(), ids: new SequentialIds(), memoryStore: taggingStore(store, { kind: 'user' }), memoryModel: { client: extractor, model: 'claude-haiku-5-5' } });
    const extracted = ofType(events, 'memory.extracted').find((e) => e.via === 'model')!;
    expect(extracted.call).toMatchObject({ model: 'claude-haiku-5-5', usage: { input_tokens: 2000, output_tokens: 100 } });

    const report = costOfEvents(events, DEFAULT_PRICE_TABLE);
    expect(report.sideCalls).toHaveLength(1);
    const line = report.sideCalls[0]!;
    expect(line).toMatchObject({ kind: 'memory_extraction', model: 'claude-haiku-5-5', agentId: 'main' });
    expect(line.cost.total).toBeGreaterThan(0);
    const turns = report.requests.reduce((t, r) => t + r.cost.total, 0);
    expect(report.totalUsd).toBeCloseTo(turns + line.cost.total, 10);
    expect(costSummaryLines(report, { apiMs: 0, wallMs: 0 }).join('\n')).toMatch(/memory_extraction · claude-haiku-5-5: \$/);
  });
});
