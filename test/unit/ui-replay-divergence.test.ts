/**
 * The replay-divergence views, from a real headless log (fix-a-bug with a hook that blocks its
 * test): the card of each differing call carries recorded vs actual, one divider sits above the
 * first reply that answered a result the recording never saw, and the short diff tells the lines apart.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { builtinDocs } from '../../src/scenarios/library/index.ts';
import { runLessonHeadless } from '../../src/run/run-lesson.ts';
import type { ScenarioV1 } from '../../src/scenarios/schema-v1.ts';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { resultDiff } from '../../src/ui/conversation/result-diff.ts';
import { summarize } from '../../src/ui/events/summary.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';

async function blockedLog(): Promise<TraceEvent[]> {
  const doc = builtinDocs.find((d) => d.id === 'fix-a-bug')!;
  const hook = { type: 'command' as const, command: `echo 'test runs are frozen' >&2; exit 2`, timeout: 60 };
  const blocked: ScenarioV1 = { ...doc, settings: { ...doc.settings, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [hook] }] } } };
  const sandbox = await createJustBashSandbox();
  try {
    return (await runLessonHeadless(blocked, { sandbox, clock: new FakeClock(), ids: new SequentialIds() })).log;
  } finally {
    await sandbox.dispose();
  }
}

describe('replay divergence in the views', () => {
  it('marks the differing cards, and puts one divider above the first reply after the divergence', async () => {
    const log = await blockedLog();
    const items = deriveConversation(log, { settled: true });
    const cards = items.flatMap((i) => (i.kind === 'tool' ? [i.call] : []));
    expect(cards.map((c) => [c.name, c.divergence?.what ?? null])).toEqual([
      ['bash', 'content'],
      ['read', null],
      ['edit', null],
      ['bash', 'is_error'],
    ]);
    expect(cards[3]!.divergence).toMatchObject({ recordedTurn: 4, expected: { content: 'PASS: total is 60', isError: false }, actual: { isError: true } });
    const dividers = items.filter((i) => i.kind === 'diverged');
    expect(dividers).toEqual([expect.objectContaining({ tool: 'bash' })]);
    const at = items.indexOf(dividers[0]!);
    // After the first card (and its result), before the recorded reply that did not see the block.
    expect(items.indexOf(items.find((i) => i.kind === 'tool')!)).toBeLessThan(at);
    expect(items.slice(at + 1).find((i) => i.kind === 'assistant' || i.kind === 'tool')?.kind).toBe('assistant');
  });

  it('summarises and explains the event from its own fields', async () => {
    const d = (await blockedLog()).find((e) => e.type === 'replay.diverged')!;
    expect(summarize(d)).toMatch(/^bash \(turn 1 of the recording\): recorded error “Exit code 1 FAIL.*”, here error “Permission to use bash/);
    const ex = explainEvent(d);
    expect(ex.why).toContain('turn 1 of the script');
    expect(ex.lesson).toBe('replay-diverges');
  });

  it('a short diff: recorded lines, this run’s lines, shared context, capped', () => {
    expect(resultDiff('a\nb\nc', 'a\nB\nc').lines).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'recorded', text: 'b' },
      { kind: 'actual', text: 'B' },
      { kind: 'same', text: 'c' },
    ]);
    const many = resultDiff('x', Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'), 5);
    expect(many.lines).toHaveLength(5);
    expect(many.more).toBe(26);
  });
});
