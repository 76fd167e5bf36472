/** One-line summaries of the agents layer's events, for the event stream rows. */
import type { TraceEvent } from '../../harness/index.ts';

export function summarizeAgentEvent(e: TraceEvent): string {
  switch (e.type) {
    case 'skills.available':
      return `${e.skills.length} skill(s) described · ~${e.tokens} tok on every call${e.problems.length ? ` · ${e.problems.length} problem(s)` : ''}`;
    case 'skill.loaded':
      return `${e.name} ${e.via === 'reattach' ? 're-attached after a summary' : 'loaded'} · ~${e.bodyTokens} tok${e.granted.length ? ` · allowed: ${e.granted.join(', ')}` : ''}`;
    case 'task.created':
      return `#${e.task.id} ${e.task.subject}${e.task.blockedBy.length ? ` · blocked by ${e.task.blockedBy.map((b) => `#${b}`).join(', ')}` : ''}`;
    case 'task.updated':
      return `#${e.task.id} ${e.changes.join('; ')}`;
    case 'task.listed':
      return `${e.tasks.length} task(s)`;
    case 'background.notification':
      return `${e.jobId} ${e.status}${e.exitCode !== undefined ? ` (exit ${e.exitCode})` : ''} · ${e.command}`;
    case 'background.stopped':
      return `run ended (${e.reason}): stopped ${e.jobs.map((j) => j.id).join(', ')}`;
    case 'interrupt.received':
      return `${e.source === 'user' ? 'you' : e.source}: ${e.text.replace(/\s+/g, ' ').slice(0, 80)} · before call ${e.beforeTurn}`;
    case 'workspace.created':
      return `${e.forAgentId} · own copy of ${e.files} file(s) at ${e.root}`;
    case 'workspace.changes':
      return e.changes.length ? `${e.forAgentId} changed ${e.changes.map((c) => `${c.path} (+${c.addedLines} −${c.removedLines})`).join(', ')}` : `${e.forAgentId} changed nothing`;
    case 'workspace.merge':
      return `merged ${e.applied.map((a) => a.path).join(', ') || 'nothing'}${e.conflicts.length ? ` · refused: ${e.conflicts.join(', ')}` : ''}`;
    case 'workspace.conflict':
      return `${e.conflict.path}: ${e.mergedBy ? `already merged by ${e.mergedBy}` : 'changed in the shared tree'} — not overwritten, needs a decision`;
    default:
      return '';
  }
}
