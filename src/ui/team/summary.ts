/** One-line summaries of the teams layer's events, for the event stream rows. */
import type { TraceEvent } from '../../harness/index.ts';

const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ');
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

export function summarizeTeamEvent(e: TraceEvent): string | null {
  switch (e.type) {
    case 'teammate.spawned':
      if (e.inTab) return `${e.name} → another tab (waiting for one to join)${e.autoClaim ? ' · claims tasks' : ''}`;
      return `${e.name} → ${e.teammateAgentId} · ${e.tools.length} tools${e.autoClaim ? ' · claims tasks' : ''} · ${e.isolation}`;
    case 'teammate.joined':
      return e.side === 'lead'
        ? `${e.name} joined from ${e.tab} · sent a copy of ${e.files} file(s), ${e.tasks} task(s), ${e.messages} message(s)`
        : `this tab is ${e.name} · took the lead's ${e.files} file(s), ${e.tasks} task(s), ${e.messages} message(s)`;
    case 'teammate.join_timeout':
      return e.side === 'lead' ? `${e.name} gone · ${e.why}` : `this tab is not ${e.name} · ${clip(e.why, 70)}`;
    case 'teammate.lost':
      return `${e.name} lost · ${e.tab} silent ${e.silentMs} ms (${e.missedBeats} beats of ${e.everyMs} ms missed)`;
    case 'teammate.wire_dropped':
      return `dropped a ${e.kind} from ${e.tab}${e.name ? ` as ${e.name}` : ''} · ${clip(e.why, 70)}`;
    case 'team.ended':
      return `${e.teammates.map((t) => `${t.name} ${t.state}`).join(', ')}${e.unanswered.length ? ` · no answer: ${e.unanswered.join(', ')}` : ''}${e.workspaces.length ? ` · merged ${e.workspaces.flatMap((w) => w.merged).length} file(s)` : ''}${e.workspaces.some((w) => w.conflicts.length) ? ' · conflicts in Merge' : ''}`;
    case 'agent.state':
      return `${e.name}: ${e.from} → ${e.to} · ${clip(e.why, 60)}`;
    case 'mailbox.sent':
      return `${e.message.from} → ${e.message.to}${e.message.type !== 'message' ? ` ${e.message.type}` : ''}${e.message.requestId ? ` ${e.message.requestId}` : ''} · ${clip(e.message.body, 50)}${e.lockWaits ? ` · waited ${e.lockWaits}×` : ''}${e.problems?.length ? ` · repaired: ${clip(e.problems.join('; '), 60)}` : ''}`;
    case 'mailbox.read':
      return `${e.reader} read ${e.messages.length} message(s)${e.problems.length ? ` · ${e.problems.length} bad line(s)` : ''}`;
    case 'mailbox.lock_recovered':
      return `stale lock ${e.lock.split('/').slice(-1)[0]} of ${e.heldBy} (${e.ageMs} ms old) taken over${e.why ? ` · ${clip(e.why, 60)}` : ''}`;
    case 'protocol.timeout':
      return `${e.requestId} ${e.request} ${e.from} → ${e.to} unanswered after ${e.waitedMs} ms`;
    case 'task.claimed':
      return `#${e.taskId} ${clip(e.subject, 40)} → ${e.owner}${e.contenders.length > 1 ? ` · raced: ${e.contenders.join(', ')}` : ''}`;
    case 'task.released':
      return `${e.owner} ${e.why} · ${e.taskIds.map((t) => `#${t}`).join(', ')} back on the board after ${e.afterMs} ms`;
    default:
      return null;
  }
}
