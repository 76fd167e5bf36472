/**
 * The end of a team (issue 13: "the team is not stopped at the end of a run"). When the lead's
 * run ends, its team ends with it, so nothing is left running and no isolated copy is left under
 * `/.ws/` without a word:
 *
 * 1. a teammate still working, or running in another tab, is asked first with the s10 protocol
 *    (`shutdown_request` from the lead, `timeoutMs` to answer — a `protocol.timeout` when it does
 *    not); it finishes its turn and, approving, shuts down. The team is pumped meanwhile, with no
 *    new claims and no other wake-ups;
 * 2. every other teammate (idle, done, waiting: no turn in flight, its transcript already closed)
 *    and whoever did not answer is stopped (`Team.stop`: its loop aborted and drained);
 * 3. stopping offers each isolated copy back (merged, or refused as conflicts for the Merge tab);
 *    a teammate that never joined from its tab is gone; tasks of gone teammates still waiting
 *    for them go back to the board now;
 * 4. `team.ended` reports every teammate's final state, every copy offered back, the unanswered
 *    requests and the tasks released; the teammates' tabs hear `bye` from the lead.
 *
 * A run that was stopped (aborted) skips step 1: the person asked for a stop, not a handshake.
 */
import { AsyncQueue } from '../../util/async-queue.ts';
import type { RunResult } from '../../loop/types.ts';
import type { Clock } from '../../ports.ts';
import type { TraceEvent, TraceEventBody } from '../../trace.ts';
import { unreadMessages } from './mailbox.ts';
import { LEAD } from './message.ts';
import { isFinal } from './state.ts';
import type { Sink, Team } from './team.ts';

/** How long a teammate has to answer the end-of-run shutdown request. */
export const DEFAULT_END_TIMEOUT_MS = 10_000;

const SHUTDOWN_BODY = "The lead's run has ended. Finish the step you are on, then answer this with a shutdown_response (approve: true).";

export async function endTeam(team: Team, sink: Sink, opts: { timeoutMs?: number; aborted?: boolean; signal?: AbortSignal } = {}): Promise<void> {
  if (team.members.size === 0) return;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_END_TIMEOUT_MS;
  const clock = team.runtime.clock;
  const asked = new Map<string, string>();
  const timedOut = new Set<string>();
  const watch: Sink = async (e) => {
    if (e.type === 'protocol.timeout' && e.from === LEAD) timedOut.add(e.to);
    await sink(e);
  };
  if (!opts.aborted) {
    for (const m of team.members.values()) {
      if (isFinal(m.state) || m.remoteTab === '') continue;
      if (!m.loop && m.remoteTab === undefined) continue;
      const open = [...team.requests.values()].find((r) => r.from === LEAD && r.to === m.name);
      const sent = open ? null : await team.send({ from: LEAD, to: m.name, type: 'shutdown_request', body: SHUTDOWN_BODY }, watch, 'main');
      const id = open?.id ?? (sent?.ok ? sent.message.requestId : undefined);
      if (!id) continue;
      asked.set(m.name, id);
      const r = team.requests.get(id);
      if (r) r.deadline = Math.min(r.deadline, clock.now() + timeoutMs);
    }
  }
  team.ending = { asked: new Set(asked.keys()) };
  if (asked.size > 0) {
    const settled = async () => {
      for (const [name, id] of asked) {
        const m = team.members.get(name)!;
        if (isFinal(m.state)) continue;
        if (team.requests.has(id) || m.loop) return false;
        // Answered (or timed out) but its mail still waits: let it read it first.
        if (m.remoteTab === undefined && (await unreadMessages(team.runtime.sandbox.fs, team.workdir, name)).length > 0) return false;
      }
      return true;
    };
    await team.pump(watch, settled, opts.signal);
  }
  const unanswered = [...asked.keys()].filter((n) => timedOut.has(n) || !isFinal(team.members.get(n)!.state));
  await team.stop(watch, opts.aborted ? 'the run was stopped' : 'the run ended');
  const released: string[] = [];
  for (const r of [...team.releases.values()]) released.push(...(await team.release(r, watch, `${r.why}; the run ended before the release timeout`)));
  team.announceEnd();
  const outcomes = team.outcomes.filter((o) => o.changed > 0);
  await sink({
    type: 'team.ended',
    teammates: [...team.members.values()].map((m) => ({ name: m.name, state: m.state, why: m.lastWhy ?? '' })),
    workspaces: outcomes.map((o) => ({ name: o.name, changed: o.changed, merged: o.merged ?? [], conflicts: o.conflicts ?? [] })),
    unanswered,
    released,
    timeoutMs,
  });
}

/**
 * The lead's run with its team's end: the events of `endTeam` go in just before the lead's
 * `run.end` (which stays the last event), stamped as the lead's, so stepping walks them too.
 * On the way, the lead's own task changes reach the teammates' tabs (`Team.shareLeadTask`).
 */
export async function* withTeamEnd(
  run: AsyncGenerator<TraceEvent, RunResult>,
  team: Team | undefined,
  opts: { clock: Clock; timeoutMs?: number; signal?: AbortSignal },
): AsyncGenerator<TraceEvent, RunResult> {
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
    const e = step.value;
    if (!team || e.type !== 'run.end' || e.agentId !== 'main' || team.members.size === 0) {
      team?.shareLeadTask(e);
      yield e;
      continue;
    }
    let seq = e.seq;
    const queue = new AsyncQueue<TraceEvent | TraceEventBody>();
    const ending = endTeam(team, (x) => queue.pushAndWait(x), { aborted: e.reason === 'aborted', ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.signal ? { signal: opts.signal } : {}) }).finally(() =>
      queue.close(),
    );
    for await (const x of queue) yield 'seq' in x ? x : ({ ...x, seq: seq++, ts: opts.clock.now(), agentId: 'main', turn: e.turn } as TraceEvent);
    await ending;
    yield { ...e, seq };
  }
}
