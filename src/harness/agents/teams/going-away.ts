/**
 * A teammate that goes away (its tab closed, was lost, or never came): it is `gone` at once — its
 * loop drained so its transcript closes, its open requests dropped — and its in-progress tasks
 * wait `afterMs` on the Clock for it before they return to the board (`task.released`).
 */
import { releaseTasksOf } from './claim.ts';
import type { Team } from './team.ts';
import { DEFAULT_RELEASE_AFTER_MS, type PendingRelease, type Sink, type Teammate } from './team-types.ts';
import { stepOne } from './wake.ts';

/** The immediate part of going away; the release is scheduled (see `Team.releases`). */
export async function scheduleGone(team: Team, m: Teammate, sink: Sink, why: string, afterMs = team.runtime.releaseAfterMs ?? DEFAULT_RELEASE_AFTER_MS): Promise<PendingRelease> {
  m.leaving = true;
  m.abort.abort();
  while (m.loop) await stepOne(team, m, sink);
  team.remoteClaims.delete(m.name);
  const pending: PendingRelease = { name: m.name, agentId: m.agentId, deadline: team.runtime.clock.now() + afterMs, afterMs, why };
  team.releases.set(m.name, pending);
  await team.move(m, 'gone', `${why}; its claimed tasks return to the board after ${afterMs} ms unless it comes back`, sink);
  for (const r of [...team.requests.values()]) if (r.from === m.name || r.to === m.name) team.requests.delete(r.id);
  return pending;
}

/** A gone teammate's in-progress tasks go back to the board (`task.released`). */
export async function releaseGone(team: Team, r: PendingRelease, sink: Sink, why = r.why): Promise<string[]> {
  team.releases.delete(r.name);
  const { released, tasks } = await releaseTasksOf(team.runtime.sandbox.fs, team.workdir, r.name, team.lockOptions('team', sink));
  if (released.length > 0) await sink(team.stampFor(r.agentId, { type: 'task.released', owner: r.name, taskIds: released.map((t) => t.id), why, afterMs: r.afterMs, tasks }));
  return released.map((t) => t.id);
}
