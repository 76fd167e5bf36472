/**
 * A compaction's summary reaches memory (seed 003 s06, seed 000 S5): an auto or manual (`/compact`)
 * summary is saved as a `compaction_summary` memory tagged with its trigger and turn, in the
 * session's name; the next session's first prompt gets it (even with no word in common), seen in
 * `memory.injected` and the first request. An untrusted document's run saves nothing.
 */
import { describe, expect, it } from 'vitest';
import { blocksOf, WORKDIR } from '../../src/harness/index.ts';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { originLabel, prepareMemory, refusingStore, taggingStore } from '../../src/harness/memory/index.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const history = Array.from({ length: 6 }, (_, i) => [
  { role: 'user' as const, content: `Port module ${i} of the billing service to TypeScript.` },
  { role: 'assistant' as const, content: [{ type: 'text' as const, text: `Module ${i} is ported; its tests pass.` }] },
]).flat();

async function compactSession(store: InMemoryMemoryStore | ReturnType<typeof refusingStore>, sessionId: string) {
  const s = await setup([], { input: { messages: [...history, { role: 'user', content: '/compact' }] } });
  const memoryStore = store instanceof InMemoryMemoryStore ? taggingStore(store, { kind: 'user', sessionId }) : store;
  return drain(s.input, { ...s.deps, summarize: deterministicSummarizer, memoryStore });
}

describe('compaction summary → memory', () => {
  it('a /compact summary is saved with its origin and offered at the next session\'s first prompt', async () => {
    const store = new InMemoryMemoryStore();
    const one = await compactSession(store, 'session-1');
    const saved = ofType(one.events, 'memory.extracted');
    expect(saved).toHaveLength(1);
    expect(saved[0]!.via).toBe('compaction');
    const [entry] = await store.list();
    expect(entry).toMatchObject({ source: 'compaction_summary', origin: { kind: 'user', sessionId: 'session-1' } });
    expect(entry!.tags).toEqual(['compaction', 'manual', `turn-${saved[0]!.turn}`]);
    expect(entry!.content).toMatch(/^Where an earlier session left off \(its \/compact summary at turn \d+\): /);
    expect(entry!.content).toContain('billing service');
    expect(originLabel(entry!.origin)).toBe('user, in session session-1');

    // Session two: a prompt with no word in common still gets the summary, first in its first message.
    const mem = await prepareMemory({ fs: (await setup([])).deps.sandbox.fs, cwd: WORKDIR, store, prompt: 'Carry on.', now: 10 });
    expect(mem.event.chosen.map((c) => [c.id, c.source])).toEqual([[entry!.id, 'compaction_summary']]);
    const two = await setup([{ content: [{ type: 'text', text: 'Picking up from module 5.' }] }], { prompt: 'Carry on.', input: { memory: mem.text } });
    await drain(two.input, two.deps);
    const first = blocksOf(two.client.requests[0]!.messages[0]!)[0]!;
    expect(first.type === 'text' && first.text).toContain('Where an earlier session left off');
  });

  it('an auto-compact summary is saved too, once per summary, with trigger auto', async () => {
    const store = new InMemoryMemoryStore();
    const bash = (command: string) => ({ content: [{ type: 'tool_use' as const, name: 'bash', input: { command } }] });
    const files = Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`data/part${n}.txt`, `part ${n} ERROR line\n`.repeat(340)]));
    const s = await setup([...[1, 2, 3, 4, 5, 6].map((n) => bash(`cat data/part${n}.txt`)), { content: [{ type: 'text', text: 'Tally done.' }] }], {
      files,
      input: { context: { windowTokens: 14000, autoCompactThreshold: 0.7, microcompact: { enabled: false }, collapse: { enabled: false } } },
    });
    const { events } = await drain(s.input, { ...s.deps, summarize: deterministicSummarizer, memoryStore: taggingStore(store, { kind: 'user', sessionId: 's-auto' }) });
    const compactions = ofType(events, 'history.rewritten').filter((e) => e.layers.includes('auto_compact'));
    expect(compactions.length).toBeGreaterThan(0);
    const entries = (await store.list()).filter((e) => e.source === 'compaction_summary');
    expect(entries).toHaveLength(compactions.length);
    expect(entries[0]!.tags).toContain('auto');
  });

  it('only the newest summary is offered without a match; an untrusted document\'s summary is never saved', async () => {
    const store = new InMemoryMemoryStore();
    await compactSession(store, 'a');
    await compactSession(store, 'b');
    const entries = await store.list();
    expect(entries).toHaveLength(2);
    const mem = await prepareMemory({ fs: (await setup([])).deps.sandbox.fs, cwd: WORKDIR, store, prompt: 'Carry on.', now: 10 });
    expect(mem.event.chosen.map((c) => c.id)).toEqual([entries[1]!.id]);
    expect(mem.event.left).toMatchObject([{ id: entries[0]!.id, reason: 'no_match' }]);

    const refused = await compactSession(refusingStore(store, 'this document is not trusted') as never, 'x');
    expect(ofType(refused.events, 'memory.extracted')[0]!.problems).toEqual([expect.stringContaining('not trusted')]);
    expect(await store.list()).toHaveLength(2);
  });
});
