/**
 * Reading trace events in tests: pull a generator to its end, pick events of one type. One copy
 * for every test (they were written out five times each).
 */

/** Pulls `gen` to its end: every event it yields, in order (each also to `onEvent`), and what it returned. */
export async function drainGenerator<E, R>(gen: AsyncGenerator<E, R>, onEvent?: (e: E) => void): Promise<{ events: E[]; result: R }> {
  const events: E[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    onEvent?.(step.value);
    step = await gen.next();
  }
  return { events, result: step.value };
}

/** Only the events `gen` yields (for runs whose result the test does not read). */
export async function eventsOf<E>(gen: AsyncGenerator<E, unknown>, onEvent?: (e: E) => void): Promise<E[]> {
  return (await drainGenerator(gen, onEvent)).events;
}

/** The events of one `type` (and, when given, of one agent), typed as that event. */
export function ofType<E extends { type: string; agentId?: string }, T extends E['type']>(events: readonly E[], type: T, agentId?: string): Extract<E, { type: T }>[] {
  return events.filter((e): e is Extract<E, { type: T }> => e.type === type && (agentId === undefined || e.agentId === agentId));
}
