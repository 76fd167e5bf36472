/**
 * Notes from other tabs, applied while the team is pumped, in arrival order: `applyWire` says
 * which side handles each kind (`lead-side.ts`, `teammate-side.ts`, `workspace-offers.ts`); the
 * notes every tab handles alike — mail, read cursors, board changes — are here. The files stay the
 * truth: mail is appended to this tab's own mailbox file before anything acts on it.
 */
import { allMessages, appendMessage, inboxPath, markRead } from './mailbox.ts';
import { LEAD } from './message.ts';
import { onClaim, onHello, onState, onTeammateBye } from './lead-side.ts';
import { record } from './protocol.ts';
import { writeBoard } from './tab-files.ts';
import { speakerName } from './sender.ts';
import type { Team } from './team.ts';
import type { Sink } from './team-types.ts';
import { onClaimed, onInvite, onLeadBye, onRefused, onWelcome } from './teammate-side.ts';
import type { TeamWire, WireOf } from './transport.ts';
import { takeOffer } from './workspace-offers.ts';

/** Applies every waiting note in order; true when there was any. */
export async function drainWire(team: Team, sink: Sink): Promise<boolean> {
  let any = false;
  // Refused notes first: what a forger tried is shown, in the order it arrived.
  for (const d of team.link.dropped.splice(0)) {
    any = true;
    await sink({ type: 'teammate.wire_dropped', ...d });
  }
  while (team.link.inbound.length > 0) {
    const w = team.link.inbound.shift()!;
    any = true;
    const verdict = team.sender?.checkSpeaker(w) ?? { ok: true };
    if (!verdict.ok) {
      const name = speakerName(w);
      await sink({ type: 'teammate.wire_dropped', tab: w.tab, kind: w.kind, ...(name ? { name } : {}), why: verdict.why });
      continue;
    }
    await applyWire(team, w, sink);
  }
  return any;
}

async function applyWire(team: Team, w: TeamWire, sink: Sink): Promise<void> {
  switch (w.kind) {
    case 'message':
      return onMessage(team, w, sink);
    case 'hello':
      return onHello(team, w, sink);
    case 'invite':
      return onInvite(team, w);
    case 'welcome':
      return onWelcome(team, w, sink);
    case 'state':
      return onState(team, w, sink);
    case 'bye':
      return w.name === LEAD ? onLeadBye(team, w, sink) : onTeammateBye(team, w, sink);
    case 'read':
      return onRead(team, w, sink);
    case 'claim':
      return onClaim(team, w);
    case 'claimed':
      return onClaimed(team, w, sink);
    case 'tasks':
      return onTasks(team, w, sink);
    case 'refused':
      return onRefused(team, w, sink);
    case 'beat':
      return;
    case 'offer':
      return takeOffer(team, w);
  }
}

/** Mail for an agent of this tab: appended to its mailbox here (ids dedupe), the protocol records it. */
async function onMessage(team: Team, w: WireOf<'message'>, sink: Sink): Promise<void> {
  if (!team.isLocal(w.message.to)) return;
  const fs = team.runtime.sandbox.fs;
  const known = (await allMessages(fs, team.workdir, w.message.to)).some((x) => x.id === w.message.id);
  if (known) return;
  const sent = await appendMessage(fs, team.workdir, w.message, team.lockOptions(w.message.from, sink));
  record(team, w.message, false);
  const from = team.members.get(w.message.from);
  await sink(team.stampFor(from?.agentId, { type: 'mailbox.sent', message: w.message, path: sent.path.slice(team.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread, ...(sent.problems.length ? { problems: sent.problems } : {}) }));
}

/** An agent of another tab read mail there: this tab's copy of its cursor moves past it too. */
async function onRead(team: Team, w: WireOf<'read'>, sink: Sink): Promise<void> {
  if (team.isLocal(w.name) || !team.isMember(w.name) || !Array.isArray(w.ids)) return;
  const seen = team.readElsewhere.get(w.name) ?? new Set<string>();
  for (const id of w.ids) seen.add(id);
  team.readElsewhere.set(w.name, seen);
  const { messages } = await markRead(team.runtime.sandbox.fs, team.workdir, w.name, seen, team.lockOptions(w.name, sink));
  const m = team.members.get(w.name);
  if (messages.length > 0) await sink(team.stampFor(m?.agentId, { type: 'mailbox.read', reader: w.name, messages, path: inboxPath(team.workdir, w.name).slice(team.workdir.length + 1), problems: [] }));
}

/** Tasks another tab created or changed: written to this tab's board (`task.updated`). */
async function onTasks(team: Team, w: WireOf<'tasks'>, sink: Sink): Promise<void> {
  if (!Array.isArray(w.tasks) || w.tasks.length === 0) return;
  const board = await writeBoard(team.runtime.sandbox.fs, team.workdir, w.tasks, team.lockOptions(w.name, sink));
  const changes = Array.isArray(w.changes) ? w.changes : [];
  for (const t of w.tasks) {
    const task = board.find((x) => x.id === t.id) ?? t;
    await sink(team.stampFor(w.name === LEAD ? undefined : `teammate-${w.name}`, { type: 'task.updated', task, changes: [...changes, `from tab ${w.tab}`], tasks: board }));
  }
}
