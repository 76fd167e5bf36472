/**
 * The run of a tab that hosts one teammate of a team whose lead is in another tab (`?teammate=`):
 * it joins as `name` (the lead must have spawned it with `in_tab`), then moves this tab's team
 * until the teammate is final or the lead's team ended, and yields every event — the teammate's
 * own, and this tab's bookkeeping (mail written here, reads, claims answered by the lead's tab) —
 * so the page steps them one at a time, as it steps a lead.
 *
 * Nothing here sleeps to make it work: when nothing can move, it waits for the next note from
 * another tab. Stopping it (the signal) stops the teammate; its state reaches the lead's tab.
 */
import { emptyContextState } from '../../context/state.ts';
import { AsyncQueue } from '../../util/async-queue.ts';
import type { RunResult } from '../../loop/types.ts';
import type { Clock } from '../../ports.ts';
import type { TraceEvent, TraceEventBody } from '../../trace.ts';
import { isFinal } from './state.ts';
import type { Sink, Team } from './team.ts';

const NO_USAGE = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

export async function* teammateTabRun(team: Team, name: string, opts: { clock: Clock; signal?: AbortSignal }): AsyncGenerator<TraceEvent, RunResult> {
  const queue = new AsyncQueue<TraceEvent | TraceEventBody>();
  const sink: Sink = (e) => queue.pushAndWait(e, opts.signal);
  const over = async () => {
    const m = team.members.get(name);
    return (m !== undefined && isFinal(m.state)) || team.leadGone || team.refused !== undefined;
  };
  const driving = (async () => {
    team.join(name);
    while (!(await over())) {
      const r = await team.pump(sink, over, opts.signal);
      if (r === 'aborted') break;
      if (r === 'quiet') await team.waitForWire(opts.signal);
      if (opts.signal?.aborted) break;
    }
    if (opts.signal?.aborted) await team.stop(sink, 'its tab stopped it');
  })().finally(() => queue.close());
  let seq = 0;
  // This tab's own bookkeeping (not any agent's loop) is the root lane, `main`.
  for await (const x of queue) yield 'seq' in x ? x : ({ ...x, seq: ++seq, ts: opts.clock.now(), agentId: 'main', turn: 0 } as TraceEvent);
  await driving;
  const m = team.members.get(name);
  return { reason: opts.signal?.aborted ? 'aborted' : 'completed', messages: m?.history ?? [], turns: 0, usage: NO_USAGE, contextState: emptyContextState() };
}
