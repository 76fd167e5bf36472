/**
 * A teammate's isolated copy of the tree, as the team handles it: made when it spawns or wakes
 * again (`openWorkspace`), filled by its tab's `offer` notes when it runs in another tab
 * (`takeOffer`), and offered back when it finishes (`closeWorkspace`: merged or refused as
 * conflicts, never written over), with the lead told by mail.
 */
import { LEAD } from './message.ts';
import { notify } from './protocol.ts';
import { applyOffer } from './tab-files.ts';
import type { Team } from './team.ts';
import type { Sink, Teammate } from './team-types.ts';
import type { TeamWire } from './transport.ts';
import type { TeammateWorkspace, WorkspaceOutcome } from './workspace.ts';

export async function openWorkspace(team: Team, name: string, agentId: string, sink: Sink): Promise<TeammateWorkspace> {
  return team.runtime.workspace!({ name, agentId, base: team.runtime.sandbox, emit: sink });
}

/**
 * Offers a finished teammate's changes back (merged or refused as conflicts, never overwritten),
 * removes its copy, and tells the lead what happened in a message from `team` — the lead learns
 * it the way it learns everything in a team, and a lead waiting in read_inbox wakes for it.
 */
export async function closeWorkspace(team: Team, m: Teammate, sink: Sink): Promise<void> {
  const ws = m.workspace!;
  delete m.workspace;
  m.sandbox = team.runtime.sandbox;
  let outcome: WorkspaceOutcome;
  try {
    outcome = await ws.close(sink);
  } catch (err) {
    outcome = { changed: 1, report: `Its changes could not be offered back (${err instanceof Error ? err.message : String(err)}); nothing was merged.` };
  }
  team.outcomes.push({ name: m.name, ...outcome });
  if (outcome.changed > 0) await notify(team, LEAD, `${m.name}'s isolated workspace (it is ${m.state}): ${outcome.report}`, sink);
}

/** Lead's tab: a teammate's tab offers its changes so far; they are written into its copy here (merged when it is final). */
export async function takeOffer(team: Team, w: Extract<TeamWire, { kind: 'offer' }>): Promise<void> {
  const m = team.members.get(w.name);
  if (!m || m.remoteTab !== w.tab || !m.workspace || !m.tabBase || !Array.isArray(w.files)) return;
  const { paths } = await applyOffer(m.workspace.sandbox.fs, m.workspace.sandbox.workdir, m.tabBase, w.files, m.offered ?? new Set());
  m.offered = paths;
}
