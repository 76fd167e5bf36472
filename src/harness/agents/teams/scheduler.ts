/**
 * The scheduler: teammates move only while the lead waits for them (`read_inbox`). Each round of
 * `pumpTeam` applies the notes from other tabs, wakes idle teammates with mail, lets idle
 * auto-claimers race for ready tasks, and pulls one event from each working teammate in turn into
 * the lead's stream (waiting for the consumer each time), so Step walks every agent one event at
 * a time and a replay is deterministic. When nothing can move it lets the Clock run towards the
 * nearest deadline (a request, a release, a join or a heartbeat), racing the next note from a tab.
 */
import { claimNextTask } from './claim.ts';
import { releaseGone } from './going-away.ts';
import { expirePresence, presenceDeadlines } from './lead-side.ts';
import { unreadMessages } from './mailbox.ts';
import { messageLine } from './message.ts';
import { timeOut } from './protocol.ts';
import { isFinal } from './state.ts';
import type { Team } from './team.ts';
import type { Sink, Teammate } from './team-types.ts';
import { claimText, stepOne, wake } from './wake.ts';
import { drainWire } from './wire.ts';

export async function pumpTeam(team: Team, sink: Sink, until: () => Promise<boolean>, signal?: AbortSignal): Promise<'until' | 'quiet' | 'aborted'> {
  const clock = team.runtime.clock;
  // The lead is woken only at a teammate's turn boundary (a wake-up ended), never between two
  // tool calls of one teammate's reply: so a request is answered after its sender's turn.
  let boundary = true;
  for (;;) {
    if (signal?.aborted) return 'aborted';
    if (boundary && (await until())) {
      // A teammate that approved its shutdown finishes its turn first, so the lead sees it stopped.
      const winding = [...team.members.values()].filter((m) => m.stopping && m.loop);
      if (winding.length === 0) return 'until';
      for (const m of winding) await stepOne(team, m, sink);
      continue;
    }
    boundary = false;
    let moved = await drainWire(team, sink);
    if (moved) boundary = true;
    moved = (await deliverMail(team, sink)) || moved;
    moved = (await claimRound(team, sink)) || moved;
    for (const m of team.members.values()) {
      if (!m.loop) continue;
      if (await stepOne(team, m, sink)) boundary = true;
      moved = true;
    }
    if (moved) continue;
    boundary = true;
    if (await until()) continue;
    const presence = presenceDeadlines(team).map((d) => d.at);
    const timed = team.releases.size > 0 || presence.length > 0 || [...team.requests.values()].some((r) => Number.isFinite(r.deadline));
    // Teammates in other tabs may still answer: wait for their next note (not for time).
    if (team.remoteAlive() && !timed) {
      await team.waitForWire(signal);
      continue;
    }
    if (!timed) return 'quiet';
    if (await expire(team, sink)) continue;
    // Nothing can move but a request is open: let time run to its deadline (the Clock port's sleep).
    const next = Math.min(...[...team.requests.values()].map((r) => r.deadline).filter(Number.isFinite), ...[...team.releases.values()].map((r) => r.deadline), ...presence);
    try {
      const sleep = clock.sleep(Math.max(1, next - clock.now()), signal);
      // A teammate in another tab may answer before the deadline: whichever comes first.
      await (team.remoteAlive() ? Promise.race([sleep, team.waitForWire(signal)]) : sleep);
    } catch {
      return 'aborted';
    }
  }
}

/** Idle (or done / waiting) teammates with mail wake up with it. */
async function deliverMail(team: Team, sink: Sink): Promise<boolean> {
  let woke = false;
  for (const m of team.members.values()) {
    if (m.loop || m.remoteTab !== undefined || isFinal(m.state)) continue;
    if (team.ending && !team.ending.asked.has(m.name)) continue;
    const pending = await unreadMessages(team.runtime.sandbox.fs, team.workdir, m.name);
    if (pending.length === 0) continue;
    const messages = await team.read(m.name, sink, m.agentId);
    if (messages.length === 0) continue;
    await wake(team, m, messages.map(messageLine).join('\n'), `mail from ${[...new Set(messages.map((x) => x.from))].join(', ')}`, sink);
    woke = true;
  }
  return woke;
}

/** Idle auto-claimers race for ready tasks; the board's lock gives each task one owner. */
async function claimRound(team: Team, sink: Sink): Promise<boolean> {
  if (team.ending) return false;
  const idleClaimer = (m: Teammate) => !m.loop && m.autoClaim && (m.state === 'idle' || m.state === 'done');
  // A teammate's tab asks the lead's tab, which owns the board's lock; the answer wakes it (`claimed`).
  if (team.runtime.hostsLead === false) {
    for (const m of team.members.values()) {
      if (m.remoteTab !== undefined || !idleClaimer(m) || m.claimAsked || !team.link.wire || team.leadGone) continue;
      m.claimAsked = true;
      team.link.post({ kind: 'claim', name: m.name });
    }
    return false;
  }
  const claimers = [...team.members.values()].filter((m) => (m.remoteTab === undefined || team.remoteClaims.has(m.name)) && idleClaimer(m));
  if (claimers.length === 0) return false;
  const results = await Promise.all(
    claimers.map(async (m) => ({ m, r: await claimNextTask(team.runtime.sandbox.fs, team.workdir, m.name, team.lockOptions(m.name, sink, m.agentId)) })),
  );
  let any = false;
  const contenders = claimers.map((m) => m.name);
  for (const { m, r } of results) {
    team.stats.lockWaits += r.waits;
    if (r.task) {
      any = true;
      team.stats.claims++;
      m.taskId = r.task.id;
      await sink(team.stampFor(m.agentId, { type: 'task.claimed', taskId: r.task.id, subject: r.task.subject, owner: m.name, contenders, lockWaits: r.waits, tasks: r.tasks }));
      if (m.remoteTab !== undefined) {
        // Decided here, under the board's lock; its own tab wakes it.
        team.remoteClaims.delete(m.name);
        team.link.post({ kind: 'claimed', name: m.name, task: r.task, tasks: r.tasks, allDone: false, contenders, lockWaits: r.waits });
        continue;
      }
      await wake(team, m, claimText(r.task), `claimed task #${r.task.id}`, sink);
    } else if (r.allDone && m.remoteTab !== undefined) {
      team.remoteClaims.delete(m.name);
      team.link.post({ kind: 'claimed', name: m.name, task: null, tasks: r.tasks, allDone: true, contenders, lockWaits: r.waits });
    } else if (r.allDone && m.state === 'idle') {
      await team.move(m, 'done', 'every task on the board is completed', sink);
    }
  }
  return any;
}

/** Deadlines that passed: presence (joins, heartbeats), releases of gone teammates' tasks, open requests. */
async function expire(team: Team, sink: Sink): Promise<boolean> {
  const now = team.runtime.clock.now();
  let any = await expirePresence(team, now, sink);
  for (const r of [...team.releases.values()]) {
    if (r.deadline > now) continue;
    any = true;
    await releaseGone(team, r, sink);
  }
  for (const r of [...team.requests.values()]) {
    if (r.deadline > now) continue;
    any = true;
    await timeOut(team, r, now, sink);
  }
  return any;
}
