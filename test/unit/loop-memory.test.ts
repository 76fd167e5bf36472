/**
 * Memory as a run uses it: CLAUDE.md files and ranked memories go first in the first message,
 * `memory.injected` says why, and facts the person asked to keep are saved after the run and
 * ranked into a later session.
 */
import { describe, expect, it } from 'vitest';
import { blocksOf, FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { InMemoryMemoryStore } from '../../src/storage/memory/memory-store.ts';
import { drain, ofType } from './loop-helpers.ts';

async function session(store: InMemoryMemoryStore, prompt?: string) {
  const scenario = findBuiltinScenario('memory-claude-md')!;
  const sandbox = await createJustBashSandbox();
  const { input, deps } = await prepareRun({
    scenario,
    sandbox,
    clock: new FakeClock(1_800_000_000_000),
    ids: new SequentialIds(),
    trusted: true,
    memoryStore: store,
    ...(prompt ? { prompt } : {}),
  });
  const client = deps.model as ReturnType<typeof createScriptedClient>;
  return { ...(await drain(input, deps)), client, sandbox };
}

describe('memory in a run', () => {
  it('injects CLAUDE.md (with its import) first in the first message, and reports it', async () => {
    const store = new InMemoryMemoryStore();
    const { events, client, sandbox } = await session(store);
    const injected = ofType(events, 'memory.injected')[0]!;
    expect(injected.files.map((f) => f.path)).toEqual(['/home/project/CLAUDE.md', '/home/project/docs/naming.md']);
    for (const request of client.requests) {
      const first = blocksOf(request.messages[0]!)[0]!;
      expect(first.type === 'text' && first.text).toContain('snake_case verbs');
    }
    expect(await sandbox.fs.readFile('/home/project/lib.sh')).toContain('print_date()');
  });

  it('saves "Remember: …" facts after the run and ranks them into a later session', async () => {
    const store = new InMemoryMemoryStore();
    const first = await session(store);
    const extracted = ofType(first.events, 'memory.extracted')[0]!;
    expect(extracted.added.map((a) => a.content)).toEqual([expect.stringMatching(/deploy on Tuesdays/i)]);
    expect((await store.list()).map((e) => e.content)).toEqual([expect.stringMatching(/deploy on Tuesdays/i)]);

    const second = await session(store, 'Which day do we deploy? Add a deploy reminder function to lib.sh.');
    const injected = ofType(second.events, 'memory.injected')[0]!;
    expect(injected.chosen.map((c) => c.content)).toEqual([expect.stringMatching(/deploy on Tuesdays/i)]);
    const firstBlock = blocksOf(second.client.requests[0]!.messages[0]!)[0]!;
    expect(firstBlock.type === 'text' && firstBlock.text).toMatch(/deploy on Tuesdays/i);
    // the same fact is not saved twice
    expect(ofType(second.events, 'memory.extracted')).toHaveLength(0);
  });

  it('an irrelevant memory is left out, with the reason', async () => {
    const store = new InMemoryMemoryStore();
    await store.put({ id: 'm1', content: 'The staging database password rotates monthly', source: 'explicit', createdAt: 1, updatedAt: 1 });
    const { events } = await session(store);
    const injected = ofType(events, 'memory.injected')[0]!;
    expect(injected.chosen).toEqual([]);
    expect(injected.left).toEqual([expect.objectContaining({ id: 'm1', reason: 'no_match' })]);
  });
});
