/**
 * Which node of the loop diagram an event belongs to, and a one-line caption of what is
 * happening. Event groups that later layers add (permission.*, hook.*, compaction.*, memory.*)
 * are mapped by prefix so the diagram lights them up without a change here.
 */
import type { TraceEvent } from '../../harness/index.ts';

export type StageNode = 'user' | 'loop' | 'model' | 'permission' | 'tools' | 'context' | 'memory' | 'hooks' | 'agents';

export const STAGE_NODES: readonly StageNode[] = [
  'user',
  'loop',
  'model',
  'permission',
  'tools',
  'context',
  'memory',
  'hooks',
  'agents',
];

/** The diagram node for an event type. */
export function stageOf(e: TraceEvent): StageNode {
  // Whatever a subagent is doing, the main loop is waiting on it: the agents node is lit.
  if (e.agentId !== 'main' || e.type === 'subagent.start' || e.type === 'subagent.stop') return 'agents';
  switch (e.type) {
    case 'run.start':
    case 'turn.start':
    case 'transition':
    case 'run.end':
      return 'loop';
    case 'context.assembled':
      return 'context';
    case 'model.request':
    case 'model.delta':
    case 'model.response':
    case 'model.error':
      return 'model';
    case 'tool.proposed':
    case 'tool.validated':
      return 'permission';
    case 'tool.started':
    case 'tool.output':
    case 'tool.result':
      return 'tools';
    case 'sandbox.changed':
      return e.origin === 'user' ? 'user' : 'tools';
    case 'message.appended':
      return e.origin === 'user' ? 'user' : e.origin === 'assistant' ? 'model' : 'loop';
  }
  const type: string = (e as { type: string }).type;
  if (type.startsWith('permission.')) return 'permission';
  if (type.startsWith('hook.')) return 'hooks';
  if (type.startsWith('compaction.') || type.startsWith('cache.')) return 'context';
  if (type.startsWith('memory.')) return 'memory';
  if (type.startsWith('workspace.')) return 'agents';
  return 'loop';
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

/** One line saying what the loop is doing at this event, for the diagram caption. */
export function captionOf(e: TraceEvent): string {
  const own = captionOfOwn(e);
  return e.agentId === 'main' ? own : `Subagent ${e.agentId}: ${own.charAt(0).toLowerCase()}${own.slice(1)}`;
}

function captionOfOwn(e: TraceEvent): string {
  switch (e.type) {
    case 'run.start':
      return `Run starts: ${e.modelClient} model ${e.model}, ${e.sandbox} sandbox, ${plural(e.tools.length, 'tool')}.`;
    case 'turn.start':
      return `Turn ${e.turn} begins: the loop prepares the next model call.`;
    case 'transition':
      return `Loop transition → ${e.reason}${e.detail ? `: ${e.detail}` : ''}.`;
    case 'run.end':
      return `Run ended (${e.reason}) after ${plural(e.turns, 'turn')}.`;
    case 'context.assembled':
      return `Context assembled: ~${e.total.toLocaleString('en-US')} tokens over ${plural(e.messageCount, 'message')}.`;
    case 'model.request':
      return `Request sent to the model${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}.`;
    case 'model.delta':
      return e.delta.kind === 'input_json'
        ? 'The model is writing a tool call’s input…'
        : e.delta.kind === 'thinking'
          ? 'The model is thinking…'
          : 'The model is streaming its reply…';
    case 'model.response':
      return `Model replied: stop reason ${e.stopReason ?? 'none'}, ${e.usage.output_tokens} output tokens.`;
    case 'model.error':
      return `Model error (${e.error.kind})${e.retryInMs !== undefined ? `, retrying in ${Math.round(e.retryInMs)} ms` : ''}.`;
    case 'tool.proposed':
      return `Tool call ${e.name} proposed; next it goes through the permission pipeline.`;
    case 'tool.validated':
      return e.ok ? `Input for ${e.name} is valid; the call may run.` : `Input for ${e.name} rejected: ${e.error ?? 'invalid'}.`;
    case 'tool.started':
      return `Running ${e.name}${e.concurrent ? ' alongside other read-only calls' : ''}…`;
    case 'tool.output':
      return `${e.chunk.stream} from the running tool…`;
    case 'tool.result':
      return `${e.name} ${e.isError ? 'failed' : 'finished'} in ${Math.round(e.ms)} ms; the result goes back to the loop.`;
    case 'sandbox.changed':
      if (e.origin === 'user') return `You changed ${e.paths.slice(0, 3).join(', ')}${e.paths.length > 3 ? '…' : ''}; the agent reads the new files on its next call.`;
      return `Sandbox files changed: ${e.paths.slice(0, 3).join(', ')}${e.paths.length > 3 ? '…' : ''}.`;
    case 'message.appended':
      return e.origin === 'user'
        ? 'The user’s prompt enters the loop.'
        : e.origin === 'assistant'
          ? 'The model’s reply is added to the conversation.'
          : e.origin === 'tool_results'
            ? 'Tool results are added to the conversation for the next turn.'
            : `The harness added a ${e.origin} message.`;
    case 'tools.changed':
      if (e.loaded?.length) return `${e.loaded.join(', ')} joined the tool list (${e.why ?? 'tool_search'}): appended at its end, the next request carries ${plural(e.visible.length, 'tool')}.`;
      return `The tool pool changed mid-run: the next request carries ${plural(e.visible.length, 'tool')}.`;
    case 'permission.prefilter':
      return `Pre-filter: ${plural(e.hidden.length, 'tool')} hidden from the model by a deny rule.`;
    case 'permission.stage':
      return `Permission · ${e.stage}: ${e.decision === 'passthrough' ? 'no decision, on to the next stage' : e.decision} for ${e.name}.`;
    case 'permission.prompt':
      return `Waiting for you: allow ${e.name}? (${e.reason})`;
    case 'permission.decision':
      return `${e.name} ${e.decision === 'allow' ? 'allowed' : 'denied'} at the ${e.stage} stage (${e.decidedBy.kind}: ${e.decidedBy.text}).`;
    case 'hook.run':
      if (e.refused) return `${e.event} http hook not called: ${e.stderr}`;
      return `${e.event} ${e.background ? 'background ' : ''}hook ${e.timedOut ? 'timed out' : e.hook.type === 'http' && e.status !== undefined ? `answered HTTP ${e.status}` : `exited ${e.exitCode}`}${e.decision && e.decision !== 'none' ? ` → ${e.decision}` : ''}${e.background?.rewake ? ' and woke the agent' : ''}.`;
    case 'hook.async_started':
      return `${e.event} hook started in the background (${e.id}); the loop goes on without waiting.`;
    case 'hook.config_error':
      return `Hooks config problem (${e.event}): ${e.message}`;
    case 'context.counted':
      return e.actual === null
        ? `count_tokens failed (${e.error ?? 'no reason'}); the estimate stands.`
        : `The API counts ${e.actual} input tokens; the estimate said ${e.estimate}.`;
    case 'settings.read':
      return `Settings read from the sandbox: ${e.files.map((f) => `${f.path}${f.ok ? '' : ' (left out: not valid)'}`).join(', ')}; in force ${e.scopes.join(' > ')}.`;
    case 'terminal.command':
      return `You ran \`${e.command}\` in the terminal (${e.interrupted ? 'stopped with Ctrl-C' : `exit ${e.exitCode}`}).`;
    case 'memory.injected':
      return e.files.length + e.chosen.length === 0
        ? 'Memory: no CLAUDE.md files and no relevant memories, so nothing is injected.'
        : `Memory: ${plural(e.files.length, 'CLAUDE.md file')} and ${plural(e.chosen.length, 'memory', 'memories')} go first in the first message (~${e.tokens} tokens).`;
    case 'memory.extracted':
      return `Memory: ${plural(e.added.length, 'fact')} saved for later sessions${e.duplicates.length ? `, ${e.duplicates.length} already known` : ''}.`;
    case 'todo.updated':
      return `The todo list changed: ${e.todos.filter((t) => t.status === 'completed').length} of ${plural(e.todos.length, 'item')} done.`;
    case 'todo.reminder':
      return e.why === 'stale' ? `The list was not touched for ${plural(e.turnsSinceWrite, 'turn')}: the harness shows it to the model again.` : 'After the summary, the todo list is attached again.';
    case 'subagent.start':
      if (e.resumed) return `The ${e.subagentType} subagent ${e.childAgentId} is continued: the same agent, its own ${plural(e.resumed.priorMessages, 'earlier message')} plus the follow-up.`;
      return `A ${e.subagentType} subagent starts with a fresh context: only its prompt, ${plural(e.tools.length, 'tool')}, at most ${plural(e.maxTurns, 'turn')}.`;
    case 'subagent.stop':
      return `The ${e.subagentType} subagent ended (${e.reason}); only its final text goes back to the main agent.`;
    case 'workspace.created':
      return `${e.forAgentId} gets its own copy of the files (${plural(e.files, 'file')}); its writes stay there until merged.`;
    case 'workspace.changes':
      return `${e.forAgentId} finished with ${plural(e.changes.length, 'changed file')} in its copy.`;
    case 'workspace.merge':
      return `Merge back: ${plural(e.applied.length, 'file')} written${e.conflicts.length ? `, ${plural(e.conflicts.length, 'conflict')} refused` : ''}.`;
    case 'workspace.conflict':
      return `Overlap in ${e.conflict.path}: not overwritten — open the merge view to resolve it.`;
  }
  return (e as { type: string }).type;
}
