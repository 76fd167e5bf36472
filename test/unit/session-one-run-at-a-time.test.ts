/**
 * The reload race merged two runs into one saved session. The session layer now refuses it: a
 * log takes one run's events at a time (`SessionLogWriter.claimRun`, claimed by `persistRun`),
 * so a second run started while the first is open gets a clear error and writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { SequentialIds } from '../../src/harness/clock.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistRun } from '../../src/harness/session/persist-run.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { setup } from './loop-helpers.ts';
import { drainGenerator } from '../helpers/events.ts';

const reply = (text: string) => [{ content: [{ type: 'text' as const, text }] }];

async function newSession(store: MemorySessionStore): Promise<string> {
  const created = await store.create({ title: 't' });
  if (!created.ok) throw new Error(created.error.message);
  return created.value.id;
}

async function logTypes(store: MemorySessionStore, id: string): Promise<string[]> {
  const log = await store.load(id);
  if (!log.ok) throw new Error(log.error.message);
  return log.value.map((e) => e.type);
}

describe('a session log takes one run at a time', () => {
  it('refuses a second run while the first is open, with a clear error, and keeps the log to the first run', async () => {
    const a = await setup(reply('First run.'));
    const b = await setup(reply('Second run.'));
    const store = new MemorySessionStore({ clock: a.clock, ids: new SequentialIds() });
    const id = await newSession(store);
    const writer = new SessionLogWriter(store, id);
    const first = persistRun(agentLoop(a.input, a.deps), { writer, clock: a.clock });
    const started = await first.next();
    expect(started.done ? null : started.value.type).toBe('run.start');

    const second = persistRun(agentLoop(b.input, b.deps), { writer, clock: b.clock });
    await expect(second.next()).rejects.toThrow(/being written by another run.*refused.*must not merge/);

    // The first run is untouched and ends normally.
    let step = await first.next();
    while (!step.done) step = await first.next();
    expect(step.value.reason).toBe('completed');
    await writer.flush();
    const types = await logTypes(store, id);
    expect(types.filter((t) => t === 'run.start')).toHaveLength(1);
    expect(types.filter((t) => t === 'session.run_result')).toHaveLength(1);
  });

  it('accepts a follow-up once the first run has ended, and after a run that was stopped', async () => {
    const s = await setup([...reply('One.'), ...reply('Two.'), ...reply('Three.')]);
    const store = new MemorySessionStore({ clock: s.clock, ids: new SequentialIds() });
    const id = await newSession(store);
    const writer = new SessionLogWriter(store, id);
    const drain = (gen: AsyncGenerator<unknown, unknown>) => drainGenerator(gen);
    await drain(persistRun(agentLoop(s.input, s.deps), { writer, clock: s.clock }));
    // A run the consumer abandons (reset, fork) releases its claim in its `finally`.
    const abandoned = persistRun(agentLoop(s.input, s.deps), { writer, clock: s.clock });
    await abandoned.next();
    await abandoned.return(undefined as never);
    await drain(persistRun(agentLoop(s.input, s.deps), { writer, clock: s.clock }));
    await writer.flush();
    expect((await logTypes(store, id)).filter((t) => t === 'run.start')).toHaveLength(3);
  });
});
