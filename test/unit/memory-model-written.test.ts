/**
 * Model-written memories: after a completed run a bounded no-tools call (through the ModelClient
 * port; a scripted model here) says what to remember, besides the deterministic rules. Visible as
 * a `memory.extracted` event via `model`; a credential is never kept; only runs whose memories may
 * be saved (the user's prompt, a trusted document) get the call at all.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { EXTRACT_SYSTEM, taggingStore } from '../../src/harness/memory/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const reply = (text: string) => ({ content: [{ type: 'text' as const, text }] });

describe('model-written memories', () => {
  it('asks the model what to remember after the run, keeps its facts, never a key; the rules still run', async () => {
    const store = new InMemoryMemoryStore();
    const extractor = createScriptedClient([
      reply('{"fact": "The project uses pnpm, not npm.", "tags": ["tooling"]}\n{"fact": "The API key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv"}\nnot json'),
    ]);
    const s = await setup([reply('Installed with pnpm.')], { prompt: 'Install the deps. Remember: we deploy on Tuesdays.' });
    const { events, result } = await drain(s.input, { ...s.deps, memoryStore: taggingStore(store, { kind: 'user', sessionId: 's1' }), memoryModel: { client: extractor, model: 'claude-haiku-5-5' } });
    expect(result.reason).toBe('completed');

    const extracted = ofType(events, 'memory.extracted');
    expect(extracted.map((e) => e.via)).toEqual(['rules', 'model']);
    expect(extracted[1]!.added.map((a) => [a.content, a.source])).toEqual([['The project uses pnpm, not npm.', 'extracted']]);
    expect(extracted[1]!.problems).toEqual([expect.stringContaining('not JSON'), 'a fact that looks like a secret (an API key or token) was not kept']);

    // One bounded no-tools call with the extraction prompt, over the exchange.
    expect(extractor.requests).toHaveLength(1);
    const req = extractor.requests[0]!;
    expect(req.system).toBe(EXTRACT_SYSTEM);
    expect(req.tools ?? []).toEqual([]);
    expect(req.max_tokens).toBeLessThanOrEqual(600);
    expect(req.model).toBe('claude-haiku-5-5');

    const kept = await store.list();
    expect(kept.map((e) => e.content).sort()).toEqual(['The project uses pnpm, not npm.', 'We deploy on Tuesdays.']);
    expect(JSON.stringify(kept)).not.toContain('sk-ant');
    expect(kept.every((e) => e.origin?.kind === 'user')).toBe(true);
  });

  it('a failed extraction call is a problem in the event; the run still completes', async () => {
    const store = new InMemoryMemoryStore();
    const extractor = createScriptedClient([]);
    const s = await setup([reply('Done.')]);
    const { events, result } = await drain(s.input, { ...s.deps, memoryStore: store, memoryModel: { client: extractor, model: 'm' } });
    expect(result.reason).toBe('completed');
    const e = ofType(events, 'memory.extracted').find((x) => x.via === 'model')!;
    expect(e.added).toEqual([]);
    expect(e.problems.length).toBeGreaterThan(0);
    expect(await store.list()).toEqual([]);
  });

  it('prepareRun gives the call only to live runs whose memories may be saved', async () => {
    const scenario = findBuiltinScenario('memory-claude-md')!;
    const live = createScriptedClient([reply('x')]);
    const base = { scenario, clock: new FakeClock(0), ids: new SequentialIds(), memoryStore: new InMemoryMemoryStore(), memoryByModel: true };
    const prep = async (o: Record<string, unknown>) => (await prepareRun({ ...base, sandbox: await createJustBashSandbox(), ...o } as Parameters<typeof prepareRun>[0])).deps.memoryModel;
    // The user's own prompt in a live run: yes, on the live client and the run's model.
    expect(await prep({ model: live, modelId: 'claude-sonnet-5-5', prompt: 'hello', trusted: false })).toEqual({ client: live, model: 'claude-sonnet-5-5' });
    // An untrusted document's own prompt: its memories are refused, so no call is made for them.
    expect(await prep({ model: live, modelId: 'claude-sonnet-5-5', trusted: false })).toBeUndefined();
    // A scripted replay keeps the deterministic rules.
    expect(await prep({ prompt: 'hello', trusted: true })).toBeUndefined();
    // Off unless asked for.
    expect(await prep({ model: live, modelId: 'claude-sonnet-5-5', prompt: 'hello', memoryByModel: false })).toBeUndefined();
  });
});
