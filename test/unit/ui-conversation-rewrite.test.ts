/**
 * The conversation view after a compaction layer rewrote the stored history: everything that
 * happened stays on screen, in order, and nothing is overwritten by the shorter history's indexes.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { drain, ofType } from './loop-helpers.ts';

describe('deriveConversation across history.rewritten', () => {
  it('keeps every tool call and the final answer after an auto-compact', async () => {
    const scenario = findBuiltinScenario('auto-compact')!;
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, deps);
    expect(ofType(events, 'history.rewritten')).toHaveLength(1);
    const items = deriveConversation(events);
    const tools = items.filter((i) => i.kind === 'tool');
    expect(tools.map((t) => (t.kind === 'tool' ? (t.call.input as { command: string }).command : ''))).toEqual([1, 2, 3, 4, 5, 6].map((n) => `cat data/part${n}.txt`));
    const last = items.filter((i) => i.kind === 'assistant').at(-1)!;
    expect(last.kind === 'assistant' && last.text).toContain('108 in all');
    expect(items.filter((i) => i.kind === 'user')[0]).toMatchObject({ text: expect.stringContaining('running tally') });
  });
});

describe('deriveConversation for a log cut mid-tool', () => {
  it('shows the open call as running while live, and as interrupted once nothing will finish it', async () => {
    const scenario = findBuiltinScenario('fix-a-bug')!;
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, deps);
    const cut = events.slice(0, events.findIndex((e) => e.type === 'tool.started') + 1);
    const status = (settled: boolean) =>
      deriveConversation(cut, { settled }).flatMap((i) => (i.kind === 'tool' ? [i.call.status] : []));
    expect(status(false)).toEqual(['running']);
    expect(status(true)).toEqual(['interrupted']);
    // a finished call is never called interrupted
    expect(deriveConversation(events, { settled: true }).flatMap((i) => (i.kind === 'tool' ? [i.call.status] : []))).not.toContain('interrupted');
  });
});
