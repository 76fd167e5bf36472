/** A compact one-line summary of any event, for the event stream rows. */
import { hookRunLabel } from '../../harness/hooks/light.ts';
import type { TraceEvent } from '../../harness/index.ts';
import { summarizeTeamEvent } from '../team/summary.ts';
import { textOf } from '../../harness/messages.ts';
import { summarizeAgentEvent } from '../agents/summary.ts';
import { summarizeMcpEvent } from '../mcp/summary.ts';

const clip = (s: string, n = 90) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

export function summarize(e: TraceEvent): string {
  switch (e.type) {
    case 'run.start':
      return `${e.modelClient} · ${e.model} · ${e.sandbox} · tools: ${e.tools.join(', ')}`;
    case 'turn.start':
      return `turn ${e.turn}`;
    case 'transition':
      return e.detail ? `${e.reason} — ${clip(e.detail, 70)}` : e.reason;
    case 'run.end':
      return `${e.reason} · ${e.turns} turns${e.error ? ` · ${clip(e.error.message, 60)}` : ''}`;
    case 'context.assembled':
      return `~${e.total} tok (sys ${e.parts.system}, tools ${e.parts.tools}, msgs ${e.parts.messages})`;
    case 'model.request':
      return `${e.request.model} · ${e.request.messages.length} msgs · attempt ${e.attempt}`;
    case 'model.delta':
      return `[${e.index}] ${e.delta.kind}: ${clip(JSON.stringify(e.delta.kind === 'input_json' ? e.delta.partial_json : e.delta.text), 70)}`;
    case 'model.response':
      return `${e.stopReason ?? '—'} · in ${e.usage.input_tokens} / out ${e.usage.output_tokens} · ${Math.round(e.ms)} ms`;
    case 'model.error':
      return `${e.error.kind}${e.error.status ? ` ${e.error.status}` : ''}: ${clip(e.error.message, 60)}`;
    case 'tool.proposed':
      return `${e.name} ${clip(JSON.stringify(e.input), 70)}`;
    case 'tool.validated':
      return `${e.name} ${e.ok ? 'ok' : `invalid: ${clip(e.error ?? '', 60)}`}`;
    case 'tool.started':
      return `${e.name}${e.concurrent ? ' (concurrent)' : ''}`;
    case 'tool.output':
      return `${e.chunk.stream}: ${clip(e.chunk.text, 70)}`;
    case 'replay.diverged':
      return `${e.name} (turn ${e.recordedTurn} of the recording): recorded ${e.expected.isError ? 'error' : 'ok'} “${clip(e.expected.content, 30)}”, here ${e.actual.isError ? 'error' : 'ok'} “${clip(e.actual.content, 30)}”`;
    case 'tool.result':
      return `${e.name} ${e.isError ? 'ERROR' : 'ok'} · ${e.content.length} chars · ${Math.round(e.ms)} ms`;
    case 'sandbox.changed':
      return clip(`${e.origin === 'user' ? 'by you: ' : ''}${e.paths.join(', ')}`);
    case 'tools.changed':
      return clip([e.loaded?.length ? `loaded ${e.loaded.join(', ')} (${e.why ?? 'tool_search'})` : '', e.added.length ? `+${e.added.join(', +')}` : '', e.changed.length ? `~${e.changed.join(', ~')}` : '', e.removed.length ? `-${e.removed.join(', -')}` : ''].filter(Boolean).join(' ') || 'reordered');
    case 'permission.prefilter':
      return `hidden from the model: ${e.hidden.map((h) => `${h.name} (${h.rule})`).join(', ')}`;
    case 'permission.stage':
      return `${e.name} · ${e.stage} → ${e.decision}${e.decidedBy ? ` by ${clip(e.decidedBy.text, 40)}` : ''}`;
    case 'permission.prompt':
      return `${e.name} needs approval: ${clip(e.reason, 70)}`;
    case 'permission.decision':
      return `${e.name} ${e.decision.toUpperCase()} at ${e.stage} · ${clip(e.decidedBy.text, 50)}`;
    case 'hook.run':
      return `${e.event} ${clip(hookRunLabel(e.hook), 40)} · ${e.refused ? 'refused' : e.hook.type === 'http' && e.status !== undefined ? `HTTP ${e.status}` : `exit ${e.exitCode}`}${e.decision ? ` · ${e.decision}` : ''}${e.background ? ` · background ${e.background.id}${e.background.rewake ? ' · woke the agent' : ''}` : ''}`;
    case 'hook.async_started':
      return `${e.event} ${clip(hookRunLabel(e.hook), 40)} · started in the background (${e.id}${e.rewake ? ', asyncRewake' : ''})`;
    case 'hook.config_error':
      return `${e.event} matcher ${JSON.stringify(e.matcher)}: ${clip(e.message, 60)}`;
    case 'compaction.layer':
      return `${e.layer} ${e.fired ? 'fired' : 'idle'} · ${e.tokensBefore} → ${e.tokensAfter} tok${summaryCallsNote(e.layer, e.summaryCalls)}`;
    case 'history.rewritten':
      return `${e.layers.length ? e.layers.join(', ') : 'context layers'} · ${e.messagesBefore} → ${e.messages.length} msgs stored`;
    case 'cache.stats':
      return `read ${e.read} · write ${e.creation} · uncached ${e.uncached} · hit ${Math.round(e.hitRate * 100)}%`;
    case 'context.counted':
      return e.actual === null ? `count_tokens failed: ${clip(e.error ?? '', 60)}` : `count_tokens ${e.actual} · estimate ${e.estimate}`;
    case 'settings.read':
      return `${e.files.map((f) => `${f.path}${f.ok ? '' : ' ✗'}`).join(', ')} · ${e.scopes.join(' > ')}${e.mode ? ` · mode ${e.mode} (${e.modeFrom})` : ''}${e.trusted ? '' : ' · untrusted'}`;
    case 'terminal.command':
      return `$ ${clip(e.command, 50)} · ${e.interrupted ? 'Ctrl-C' : `exit ${e.exitCode}`}`;
    case 'memory.injected':
      return `${e.files.length} file(s), ${e.chosen.length} memories chosen, ${e.left.length} left out · ~${e.tokens} tok`;
    case 'memory.extracted':
      return `${e.via}: ${e.added.length} saved${e.added.length ? ` — ${clip(e.added.map((a) => a.content).join('; '), 60)}` : ''}`;
    case 'slash.command':
      return `/${e.name}${e.args ? ` ${clip(e.args, 40)}` : ''} · ${e.kind ?? 'builtin'}${e.panel ? ` → ${e.panel} panel` : ''}${e.path ? ` · ${e.path}` : ''}`;
    case 'message.appended':
      return `#${e.index} ${e.origin}: ${clip(textOf(e.message) || `${Array.isArray(e.message.content) ? e.message.content.map((b) => b.type).join(', ') : ''}`, 70)}`;
    // agents
    case 'todo.updated':
      return `${e.todos.filter((t) => t.status === 'completed').length}/${e.todos.length} done${e.todos.find((t) => t.status === 'in_progress') ? ` · now: ${clip(e.todos.find((t) => t.status === 'in_progress')!.activeForm, 50)}` : ''}`;
    case 'todo.reminder':
      return e.why === 'stale' ? `list shown again: not updated for ${e.turnsSinceWrite} turns` : 'list re-attached after a summary';
    case 'subagent.start':
      if (e.resumed) return `${e.subagentType} ${e.childAgentId} continued (same agent, ${e.resumed.priorMessages} earlier messages) · ${clip(e.description, 40)}`;
      return `${e.subagentType} → ${e.childAgentId} · ${clip(e.description, 40)} · ${e.tools.length} tools, ≤${e.maxTurns} turns, ${e.permissionMode}`;
    case 'subagent.stop':
      return `${e.subagentType} ${e.reason} · ${e.turns} turns · ${e.toolUses} tool uses · ${e.usage.input_tokens + e.usage.output_tokens} tok`;
  }
  return summarizeTeamEvent(e) ?? summarizeMcpEvent(e) ?? summarizeAgentEvent(e);
}

/** Colour family of a type badge. */
export function badgeFamily(type: string): string {
  return type.split('.')[0] ?? 'other';
}

/**
 * A layer's summary calls: a collapse's written by the model, or the deterministic summary standing
 * in; auto-compact's (and `/compact`'s) written by the model, or failed (nothing stands in).
 */
function summaryCallsNote(layer: string, calls: readonly { model: string; fallback?: string; fit?: { sent: boolean; by: string } }[] | undefined): string {
  if (!calls || calls.length === 0) return '';
  const failed = calls.filter((c) => c.fallback).length;
  const cut = calls.some((c) => c.fit?.sent) ? ' (request cut to fit)' : '';
  if (failed === 0) return ` · summary by ${calls[0]!.model}${cut}`;
  if (layer === 'auto_compact' && calls[0]!.fit?.sent === false) return ` · summary request did not fit the ${calls[0]!.fit.by}: deterministic`;
  if (layer === 'auto_compact') return ` · summary call to ${calls[0]!.model} failed`;
  return ` · ${failed} model summar${failed === 1 ? 'y' : 'ies'} failed: deterministic`;
}
