/**
 * The lead's tab's half of the wire: welcoming a tab that joins as a waiting `in_tab` teammate,
 * mirroring teammates that run elsewhere (their hello, state, claim requests, bye), and presence —
 * the join deadline and the heartbeats of each joined tab, a late or lost tab refused.
 */
import { readTasks } from '../tasks/store.ts';
import { scheduleGone } from './going-away.ts';
import { allMessages } from './mailbox.ts';
import { LEAD } from './message.ts';
import { notify } from './protocol.ts';
import { remoteMember } from './spawn.ts';
import { isFinal } from './state.ts';
import { workingFiles } from './tab-files.ts';
import type { Team } from './team.ts';
import type { Sink, Teammate } from './team-types.ts';
import type { WireOf } from './transport.ts';
import { openWorkspace } from './workspace-offers.ts';

/** A tab says a teammate runs there; if it asks to be a waiting `in_tab` teammate, it is welcomed. */
export async function onHello(team: Team, w: WireOf<'hello'>, sink: Sink): Promise<void> {
  const m = team.members.get(w.name);
  if (m?.remoteTab === '' && w.join && team.runtime.hostsLead !== false) return welcome(team, m, w.tab, sink);
  if (m || w.join) return;
  team.members.set(w.name, remoteMember(team, w.name, w.tab));
  await sink(team.stampFor(`teammate-${w.name}`, { type: 'agent.state', name: w.name, from: 'new', to: w.state, why: `it runs in another tab (${w.tab})` }));
}

/** A tab joined as `m`: its copy of the tree is made here (an isolated workspace) and sent with the board and its mail. */
async function welcome(team: Team, m: Teammate, tab: string, sink: Sink): Promise<void> {
  m.remoteTab = tab;
  delete m.joinDeadline;
  m.workspace = await openWorkspace(team, m.name, m.agentId, sink);
  const files = await workingFiles(m.workspace.sandbox.fs, m.workspace.sandbox.workdir);
  m.tabBase = files;
  const { tasks } = await readTasks(team.runtime.sandbox.fs, team.workdir);
  const mail = await allMessages(team.runtime.sandbox.fs, team.workdir, m.name);
  team.link.post({ kind: 'welcome', to: tab, name: m.name, files, tasks, mail, autoClaim: m.autoClaim, members: [LEAD, ...team.members.keys()] });
  await sink(team.stampFor(m.agentId, { type: 'teammate.joined', name: m.name, tab, side: 'lead', files: Object.keys(files).length, tasks: tasks.length, messages: mail.length }));
}

/** A teammate in another tab changed state: mirrored here. */
export async function onState(team: Team, w: WireOf<'state'>, sink: Sink): Promise<void> {
  const m = team.members.get(w.name);
  if (m?.remoteTab === w.tab) await team.move(m, w.to, `${w.why} (in tab ${w.tab})`, sink);
}

/** A teammate's tab closed: it is gone (its tasks released later). */
export async function onTeammateBye(team: Team, w: WireOf<'bye'>, sink: Sink): Promise<void> {
  const m = team.members.get(w.name);
  if (m?.remoteTab === w.tab && !isFinal(m.state)) await scheduleGone(team, m, sink, `its tab (${w.tab}) closed`);
}

/** An idle auto-claimer in another tab asks for a task: it joins the next claim round here. */
export function onClaim(team: Team, w: WireOf<'claim'>): void {
  const m = team.members.get(w.name);
  if (team.runtime.hostsLead !== false && m?.remoteTab === w.tab && !isFinal(m.state)) team.remoteClaims.add(w.name);
}

/** A tab whose teammate was marked gone still beats (it froze and came back): it is told to stop. */
export function answerLostBeat(team: Team, tab: string): void {
  if (team.runtime.hostsLead === false || team.refusedTabs.has(tab)) return;
  const m = [...team.members.values()].find((x) => x.remoteTab === tab && x.state === 'gone');
  if (m) refuse(team, tab, m.name, `the lead's tab marked ${m.name} gone: ${m.lastWhy ?? 'its tab went away'}`);
}

/** A tab asks to be a teammate that stopped waiting for one (or whose tab was lost): refused, true. */
export function refuseLateJoin(team: Team, tab: string, name: string): boolean {
  const m = team.members.get(name);
  if (team.runtime.hostsLead === false || !m || !isFinal(m.state) || m.isolation !== 'overlay' || m.remoteTab === undefined) return false;
  if (!team.refusedTabs.has(tab)) refuse(team, tab, name, `${name} is ${m.state}: ${m.lastWhy ?? ''}`);
  return true;
}

function refuse(team: Team, tab: string, name: string, why: string): void {
  team.refusedTabs.add(tab);
  team.link.post({ kind: 'refused', to: tab, name, why });
}

/** When each teammate in another tab stops being waited for (a join, or its heartbeats), on the Clock. */
export function presenceDeadlines(team: Team): { m: Teammate; at: number; kind: 'join' | 'lost' }[] {
  if (team.runtime.hostsLead === false) return [];
  const out: { m: Teammate; at: number; kind: 'join' | 'lost' }[] = [];
  for (const m of team.members.values()) {
    if (m.remoteTab === undefined || isFinal(m.state)) continue;
    if (m.remoteTab === '') {
      if (m.joinDeadline !== undefined) out.push({ m, at: m.joinDeadline, kind: 'join' });
      continue;
    }
    const at = team.presence.deadline(m.remoteTab);
    if (at !== undefined) out.push({ m, at, kind: 'lost' });
  }
  return out;
}

/** Nobody joined in time, or a joined tab went silent: the teammate is gone and the lead is told by mail. */
export async function expirePresence(team: Team, now: number, sink: Sink): Promise<boolean> {
  let any = false;
  for (const { m, at, kind } of presenceDeadlines(team)) {
    if (at > now) continue;
    any = true;
    if (kind === 'join') {
      const why = `no tab joined as ${m.name} within ${team.joinTimeoutMs} ms`;
      await sink(team.stampFor(m.agentId, { type: 'teammate.join_timeout', name: m.name, side: 'lead', why, timeoutMs: team.joinTimeoutMs }));
      for (const r of [...team.requests.values()]) if (r.from === m.name || r.to === m.name) team.requests.delete(r.id);
      await team.move(m, 'gone', `${why}; nobody read its prompt`, sink);
      await notify(team, LEAD, `Nobody joined as ${m.name} within ${team.joinTimeoutMs} ms, so ${m.name} is gone (its prompt was never read). Spawn it again without in_tab to run it in this tab, or do its work yourself.`, sink);
      continue;
    }
    const tab = m.remoteTab!;
    const s = team.presence.silence(tab, now);
    await sink(team.stampFor(m.agentId, { type: 'teammate.lost', name: m.name, tab, ...s }));
    const pending = await scheduleGone(team, m, sink, `its tab (${tab}) stopped answering: no heartbeat for ${s.silentMs} ms (${s.missedBeats} beats of ${s.everyMs} ms missed)`);
    await notify(team, LEAD, `${m.name}'s tab (${tab}) stopped answering (no heartbeat for ${s.silentMs} ms), so ${m.name} is gone; its in-progress tasks return to the board after ${pending.afterMs} ms.`, sink);
  }
  return any;
}
