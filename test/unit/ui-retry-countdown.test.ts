/**
 * The error card while the loop waits to retry: it knows when the wait ends (for the ticking
 * countdown), and says afterwards whether the retry went out or the run was stopped during it.
 */
import { describe, expect, it } from 'vitest';
import { deriveConversation } from '../../src/ui/state/conversation.ts';
import { drain, setup } from './loop-helpers.ts';

async function retryingRun() {
  const s = await setup([{ fault: { kind: 'http', status: 429, retryAfterSeconds: 30 } }, { content: [{ type: 'text', text: 'ok' }] }]);
  return (await drain(s.input, s.deps)).events;
}
const card = (items: ReturnType<typeof deriveConversation>) => items.find((i) => i.kind === 'error');

describe('retry countdown state', () => {
  it('while waiting: the card knows when the retry is due', async () => {
    const events = await retryingRun();
    const at = events.findIndex((e) => e.type === 'model.error');
    const err = events[at]!;
    expect(card(deriveConversation(events.slice(0, at + 1)))).toMatchObject({ retry: 'waiting', retryInMs: 30_000, retryAt: err.ts + 30_000 });
  });

  it('once the next attempt went out: retried', async () => {
    const events = await retryingRun();
    expect(card(deriveConversation(events))).toMatchObject({ retry: 'retried', retryInMs: 30_000 });
  });

  it('stopped during the wait: stopped', async () => {
    const events = await retryingRun();
    const at = events.findIndex((e) => e.type === 'model.error');
    const end = events.find((e) => e.type === 'run.end')!;
    expect(card(deriveConversation([...events.slice(0, at + 1), { ...end, reason: 'aborted' }]))).toMatchObject({ retry: 'stopped' });
  });
});
