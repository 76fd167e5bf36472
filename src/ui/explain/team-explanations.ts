/**
 * The explanations of the teams layer's events (`src/harness/agents/teams/`), spread into
 * `EVENT_EXPLANATIONS`: a teammate, its state machine, mailboxes and their locks, the protocol's
 * timeouts, and claiming from the board.
 */
import type { TeamEventBody } from '../../harness/agents/index.ts';
import type { EventExplanations } from './event-explanations.ts';

type TeamEventType = TeamEventBody['type'];

export const TEAM_EVENT_EXPLANATIONS: Pick<EventExplanations, TeamEventType> = {
  'teammate.spawned': {
    means: 'The lead started a teammate: a long-lived agent with its own conversation, system prompt, tools and permissions. Unlike a subagent it does not end after one answer; it idles and wakes on mail.',
    why: (e) =>
      e.inTab
        ? `\`${e.name}\` will run in another tab: its lane waits until a tab joins as it (the Team tab has the link). Its prompt waits in \`.team/inbox/${e.name}.jsonl\`${e.autoClaim ? '; once joined it asks this tab for ready tasks' : ''}.`
        : `\`${e.name}\` runs as \`${e.teammateAgentId}\` with ${e.tools.length} tools${e.autoClaim ? ', claiming ready tasks from the board by itself' : ''}, in the ${e.isolation} workspace. Its first message (the prompt) is already in \`.team/inbox/${e.name}.jsonl\`.`,
    otherwise: 'A one-shot subagent would forget everything after its answer; a teammate keeps its history across the lead’s turns.',
    lesson: 'team-split-tasks',
    terms: ['subagent'],
  },
  'teammate.joined': {
    means: 'A second tab joined the team as a teammate the lead spawned to run in another tab. That tab runs the teammate’s loop (its events are stepped there); this one sees its state, mail and claims.',
    why: (e) =>
      e.side === 'lead'
        ? `Tab ${e.tab} is now \`${e.name}\`. Its copy of the working tree (${e.files} file(s)) was made here as an isolated workspace and sent with the board (${e.tasks} task(s)) and its mail (${e.messages} message(s)); what it changes comes back after each of its turns and is merged, overlaps refused, when it finishes.`
        : `This tab is \`${e.name}\`. It took the lead’s copy of the working tree (${e.files} file(s)), the board (${e.tasks} task(s)) and its mail (${e.messages} message(s)); every message is still written to this tab’s own \`.team/\` files, and claims are decided in the lead’s tab under its board lock.`,
    otherwise: 'Without a copy of its own the second tab would edit files the lead’s tab never sees, or two tabs would write one tree with nothing to detect an overlap.',
    lesson: 'team-other-tab',
    terms: [],
  },
  'teammate.join_timeout': {
    means: 'Nobody joined in time. A teammate spawned to run in another tab waits for a tab to join as it only until the join timeout (on the Clock); then it is gone and the lead is told by mail, so the lead’s read_inbox ends instead of waiting for ever.',
    why: (e) =>
      e.side === 'lead'
        ? `${e.why}. \`${e.name}\` is gone (its prompt was never read) and a message from \`team\` woke the lead: it can spawn ${e.name} again without in_tab, to run it here, or do the work itself. A tab that asks to be ${e.name} later is refused.`
        : `The lead’s tab refused this tab: ${e.why}. Nothing runs here; close the tab, or ask the lead for a new teammate.`,
    otherwise: 'An unanswered join is like an unanswered request: without a deadline the lead waits in read_inbox until someone presses Stop.',
    lesson: 'team-other-tab',
    terms: [],
  },
  'teammate.lost': {
    means: 'A joined teammate’s tab stopped beating. Every tab on the team’s channel posts a heartbeat; the lead’s tab counts the beats a tab misses, and after too many it treats the teammate as gone — exactly as if its tab had said bye.',
    why: (e) =>
      `Tab ${e.tab} (\`${e.name}\`) beat every ${e.everyMs} ms; nothing came from it for ${e.silentMs} ms, ${e.missedBeats} beats missed. \`${e.name}\` is gone: its copy is merged as of its last offer, its claimed tasks go back to the board after the release timeout, and the lead is told by mail.`,
    otherwise: 'A tab that crashes, freezes or is killed never says bye: without heartbeats the lead would wait for it, and its tasks stay owned, for ever.',
    lesson: 'team-other-tab',
    terms: [],
  },
  'teammate.wire_dropped': {
    means: 'A note from another tab was refused. Tabs talk over a BroadcastChannel, which says nothing about who posted: each note names its tab and its writer, so this tab checks both — the team’s key from the join link, and that the writer runs in the tab the note came from.',
    why: (e) => `A \`${e.kind}\` from tab ${e.tab}${e.name ? ` speaking as \`${e.name}\`` : ''} was dropped: ${e.why}. Nothing it said was written to a mailbox or acted on.`,
    otherwise: 'Any script of this origin on the channel could post mail “from lead”, say goodbye in another tab’s name, or join as a teammate before the tab the link was made for.',
    lesson: 'team-other-tab',
    terms: [],
  },
  'team.ended': {
    means: 'The lead’s run ended, and its team with it: every teammate was brought to a final state and every isolated copy was offered back, so nothing keeps running or stays unmerged without a word.',
    why: (e) =>
      [
        e.teammates.map((t) => `${t.name}: ${t.state === 'shut_down' ? 'shut down' : t.state}`).join(', ') + '.',
        e.unanswered.length ? `No answer within ${e.timeoutMs} ms from ${e.unanswered.join(', ')}: stopped.` : '',
        e.workspaces.length ? e.workspaces.map((w) => `${w.name}'s copy: ${w.changed} file(s) changed, merged ${w.merged.join(', ') || 'none'}${w.conflicts.length ? `, refused ${w.conflicts.join(', ')} (see Merge)` : ''}.`).join(' ') : 'No isolated copy had changes.',
        e.released.length ? `Back on the board: ${e.released.map((t) => `#${t}`).join(', ')}.` : '',
      ]
        .filter(Boolean)
        .join(' '),
    otherwise: 'Idle teammates would outlive the run with nobody to wake them, and an isolated teammate’s edits would stay in its copy under /.ws/, silently left behind.',
    lesson: 'team-shutdown',
    terms: [],
  },
  'agent.state': {
    means: 'A teammate’s state machine moved: idle → working (mail or a claimed task woke it) → idle, waiting (it sent a request), done or shut down.',
    why: (e) => `\`${e.name}\`: ${e.from} → ${e.to} because ${e.why}${e.taskId ? ` (task #${e.taskId})` : ''}.`,
    otherwise: 'Without explicit states an agent could send a second request while waiting for the first, or be given work after it stopped.',
    lesson: 'team-split-tasks',
    terms: [],
  },
  'mailbox.sent': {
    means: 'A message was appended, as one JSON line, to the recipient’s mailbox file under an atomic-mkdir lock.',
    why: (e) => `${e.message.from} → ${e.message.to}${e.message.type !== 'message' ? ` (${e.message.type}${e.message.requestId ? `, ${e.message.requestId}` : ''})` : ''}, into \`${e.path}\`; the sender waited for the lock ${e.lockWaits} time(s); ${e.message.to} now has ${e.unread} unread.`,
    otherwise: 'Two writers appending without the lock can both read the old file and each write it back with only their own line: one message is lost.',
    lesson: 'team-split-tasks',
    terms: [],
  },
  'mailbox.read': {
    means: 'An agent took its unread messages: its read cursor moved past them. The file keeps every line.',
    why: (e) => `${e.reader} read ${e.messages.length} message(s) from \`${e.path}\`${e.problems.length ? `; ${e.problems.length} line(s) were not messages` : ''}.`,
    otherwise: 'Without a cursor a reader would see the same message twice, or a message could be dropped when the file is rewritten.',
    lesson: 'team-split-tasks',
    terms: [],
  },
  'mailbox.lock_recovered': {
    means: 'A lock was older than its stale limit — its holder presumably died mid-write — so it was moved aside (an atomic rename) and taken over.',
    why: (e) => `\`${e.lock}\`, held by ${e.heldBy}, was ${e.ageMs} ms old (limit ${e.staleMs} ms)${e.why ? `: ${e.why}` : ''}.`,
    otherwise: 'A lock left behind by a crashed agent or a closed tab would block every writer forever.',
    lesson: 'team-claim-race',
    terms: [],
  },
  'protocol.timeout': {
    means: 'A protocol request (shutdown, plan) got no answer in time. The requester is told in its mailbox instead of waiting for ever.',
    why: (e) => `${e.from}’s ${e.request} ${e.requestId} to ${e.to} waited ${e.waitedMs} ms.`,
    otherwise: 'An unanswered request would hang the requester — the classic deadlock of agents waiting on each other.',
    lesson: 'team-shutdown',
    terms: [],
  },
  'task.claimed': {
    means: 'An idle teammate claimed a ready, unowned task from the board. The read-decide-write ran under the board’s lock file, so one task never has two owners.',
    why: (e) => `${e.owner} took #${e.taskId} “${e.subject}”${e.contenders.length > 1 ? `; ${e.contenders.join(', ')} raced in the same round` : ''}; it waited ${e.lockWaits} time(s) for the lock.`,
    otherwise: 'Two agents reading the board at once would both see the task free, both take it and both do it (or clobber each other’s files).',
    lesson: 'team-claim-race',
    terms: [],
  },
  'task.released': {
    means: 'A teammate went away (its tab closed) still owning tasks in progress; after the release timeout they went back to the board, unowned, for others to claim.',
    why: (e) => `${e.owner} ${e.why}; after ${e.afterMs} ms ${e.taskIds.map((t) => `#${t}`).join(', ')} returned to the board.`,
    otherwise: 'Tasks owned by an agent that no longer exists would never be finished, and nobody else may claim them.',
    lesson: 'team-claim-race',
    terms: [],
  },
};
