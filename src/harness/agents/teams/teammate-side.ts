/**
 * The teammate's tab's half of the wire: asking the lead's tab to be a teammate (`hello` with
 * `join`), starting it from the welcome (the copy of the tree, the board, its mail), the answers
 * to its claims, and the two ends — the lead's team ended (`bye` from the lead) or the lead's tab
 * refused this tab (it joined too late, or it was lost).
 */
import { appendMessage, allMessages } from './mailbox.ts';
import { LEAD } from './message.ts';
import { teammateSystem } from './spawn.ts';
import { isFinal } from './state.ts';
import { takeCopy, writeBoard } from './tab-files.ts';
import type { Team } from './team.ts';
import type { Sink } from './team-types.ts';
import type { WireOf } from './transport.ts';
import { claimText, wake } from './wake.ts';

export function askToJoin(team: Team, name: string): void {
  if (!team.link.wire) throw new Error('join needs a transport (attachTransport first)');
  team.joining = name;
  team.link.post({ kind: 'hello', name, state: 'idle', join: true });
}

/** The lead spawned a teammate to run in another tab: if this tab waits to be it, it says hello again. */
export function onInvite(team: Team, w: WireOf<'invite'>): void {
  if (team.joining === w.name) team.link.post({ kind: 'hello', name: w.name, state: 'idle', join: true });
}

/** The welcome arrived: take the copy, the board and the mail, and start the teammate here. */
export async function onWelcome(team: Team, w: WireOf<'welcome'>, sink: Sink): Promise<void> {
  if (w.to !== team.link.tab || team.joining !== w.name) return;
  delete team.joining;
  const fs = team.runtime.sandbox.fs;
  const files = typeof w.files === 'object' && w.files !== null ? w.files : {};
  await takeCopy(fs, team.workdir, files);
  const tasks = await writeBoard(fs, team.workdir, Array.isArray(w.tasks) ? w.tasks : [], team.lockOptions(w.name, sink), true);
  const mail = Array.isArray(w.mail) ? w.mail : [];
  const known = new Set((await allMessages(fs, team.workdir, w.name)).map((x) => x.id));
  for (const message of mail) if (!known.has(message.id)) await appendMessage(fs, team.workdir, message, team.lockOptions(message.from, sink));
  // This tab's bookkeeping, before the teammate's own first event (its spawn here).
  await sink({ type: 'teammate.joined', name: w.name, tab: team.link.tab!, side: 'teammate', files: Object.keys(files).length, tasks: tasks.length, messages: mail.length });
  const r = await team.spawn({ name: w.name, prompt: '', autoClaim: w.autoClaim === true, system: teammateSystem(w.name, Array.isArray(w.members) ? w.members : [LEAD, w.name]) }, sink, { welcomed: true });
  if (!r.ok) throw new Error(r.message);
  r.teammate.tabBase = files;
}

/** The lead's tab decided this tab's claim under the board's lock: the board is written here and the task wakes it. */
export async function onClaimed(team: Team, w: WireOf<'claimed'>, sink: Sink): Promise<void> {
  const m = team.members.get(w.name);
  if (!m || m.remoteTab !== undefined || isFinal(m.state)) return;
  m.claimAsked = false;
  const tasks = await writeBoard(team.runtime.sandbox.fs, team.workdir, w.tasks, team.lockOptions(m.name, sink, m.agentId), true);
  if (w.task) {
    m.taskId = w.task.id;
    await sink(team.stampFor(m.agentId, { type: 'task.claimed', taskId: w.task.id, subject: w.task.subject, owner: m.name, contenders: w.contenders, lockWaits: w.lockWaits, tasks }));
    if (!m.loop) await wake(team, m, claimText(w.task), `claimed task #${w.task.id} (decided in the lead's tab ${w.tab})`, sink);
  } else if (w.allDone && m.state === 'idle') await team.move(m, 'done', 'every task on the board is completed', sink);
}

/** The lead's team ended (its tab closed or its run ended): this tab stops its teammates. */
export async function onLeadBye(team: Team, w: WireOf<'bye'>, sink: Sink): Promise<void> {
  if (team.runtime.hostsLead !== false || team.leadGone) return;
  team.leadGone = true;
  await team.stop(sink, `the lead's team ended (tab ${w.tab})`);
}

/** The lead's tab no longer takes this tab: a join is answered with its timeout, a running teammate stops. */
export async function onRefused(team: Team, w: WireOf<'refused'>, sink: Sink): Promise<void> {
  if (w.to !== team.link.tab || team.runtime.hostsLead !== false || team.refused !== undefined) return;
  team.refused = typeof w.why === 'string' ? w.why : 'the lead refused this tab';
  if (team.joining === w.name) {
    delete team.joining;
    await sink({ type: 'teammate.join_timeout', name: w.name, side: 'teammate', why: team.refused });
  } else await team.stop(sink, `the lead's tab refused this tab (${team.refused})`);
}
