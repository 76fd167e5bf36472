/**
 * The safety layer as a person reads it, derived from the trace alone: the permission stages of
 * each tool call (with the deciding one marked), the hooks timeline, and the audit records.
 * Pure and framework-free, like conversation.ts, so any prefix of the event log can be shown.
 */
import { hookRunLabel } from '../../harness/hooks/light.ts';
import { redactDeep } from '../../harness/session/light.ts';
import type { TraceEvent } from '../../harness/index.ts';
import type { DecidedBy, StageDecision, StageName } from '../../harness/permissions/index.ts';
import { modeSourceText } from '../explain/mode-source.ts';

export type StageView = {
  stage: StageName;
  decision: StageDecision;
  reason: string;
  decidedBy?: DecidedBy;
  /** This stage ended the pipeline with the final decision. */
  deciding: boolean;
  /** The mode stage: the mode in force and, in words, the settings scope it came from (`settings.read`). */
  mode?: { name: string; from: string };
};

export type CallPermission = {
  stages: StageView[];
  /** The pipeline's final word, once it is known. */
  final?: { decision: 'allow' | 'deny'; stage: StageName; reason: string; decidedBy: DecidedBy };
  /** A person was (or is being) asked. */
  prompt?: { reason: string; suggestions: string[] };
};

type Ev<T extends TraceEvent['type']> = Extract<TraceEvent, { type: T }>;

/** Permission stages per `tool_use` id. */
export function derivePermissions(events: readonly TraceEvent[]): Map<string, CallPermission> {
  const out = new Map<string, CallPermission>();
  const get = (id: string) => {
    let p = out.get(id);
    if (!p) out.set(id, (p = { stages: [] }));
    return p;
  };
  // The mode each agent's run read at its start (only the run that read settings knows its source).
  const modes = new Map<string, { name: string; from: string }>();
  for (const e of events) {
    if (e.type === 'settings.read') {
      if (e.mode) modes.set(e.agentId, { name: e.mode, from: modeSourceText(e.modeFrom) });
    } else if (e.type === 'permission.stage') {
      const mode = e.stage === 'mode' ? modes.get(e.agentId) : undefined;
      get(e.toolUseId).stages.push({
        stage: e.stage,
        decision: e.decision,
        reason: e.reason,
        ...(e.decidedBy ? { decidedBy: e.decidedBy } : {}),
        deciding: false,
        ...(mode ? { mode } : {}),
      });
    } else if (e.type === 'permission.prompt') {
      get(e.toolUseId).prompt = { reason: e.reason, suggestions: e.suggestions };
    } else if (e.type === 'permission.decision') {
      const p = get(e.toolUseId);
      p.final = { decision: e.decision, stage: e.stage, reason: e.reason, decidedBy: e.decidedBy };
      // The decider is the last stage of that name (a stage may be reported once per pass).
      const decider = p.stages.findLast((s) => s.stage === e.stage);
      if (decider) decider.deciding = true;
    }
  }
  return out;
}

/** One line saying who decided: `rule: Bash(rm *)`, `hook: PreToolUse hooks`, `mode: plan` … */
export function decidedByText(by: DecidedBy | undefined): string {
  return by ? `${by.kind}: ${by.text}` : '';
}

export type HookRow =
  | {
      kind: 'run';
      seq: number;
      event: string;
      matcher: string;
      /** The command, or the JS hook's name. */
      label: string;
      hookType: 'command' | 'prompt' | 'http' | 'js';
      exitCode: number;
      timedOut: boolean;
      ms: number;
      decision: string;
      reason?: string;
      input: unknown;
      stdout: string;
      stderr: string;
      /** An http hook's answer status. */
      status?: number;
      /** An http hook to an origin the user did not allow: not called (stderr says why). */
      refused?: boolean;
      /** It ran in the background (`async` / `asyncRewake`); `rewake`: its exit 2 woke the agent. */
      background?: { id: string; rewake: boolean };
    }
  | { kind: 'async_started'; seq: number; id: string; event: string; matcher: string; label: string; hookType: 'command' | 'prompt' | 'http' | 'js'; rewake: boolean }
  | { kind: 'config_error'; seq: number; event: string; matcher: string; message: string };

export function deriveHookRows(events: readonly TraceEvent[]): HookRow[] {
  const rows: HookRow[] = [];
  for (const e of events) {
    if (e.type === 'hook.run') {
      rows.push({
        kind: 'run',
        seq: e.seq,
        event: e.event,
        matcher: e.matcher,
        label: hookRunLabel(e.hook),
        hookType: e.hook.type,
        exitCode: e.exitCode,
        timedOut: e.timedOut,
        ms: e.ms,
        decision: e.decision ?? 'none',
        ...(e.reason ? { reason: e.reason } : {}),
        input: e.input,
        stdout: e.stdout,
        stderr: e.stderr,
        ...(e.status !== undefined ? { status: e.status } : {}),
        ...(e.refused ? { refused: true } : {}),
        ...(e.background ? { background: e.background } : {}),
      });
    } else if (e.type === 'hook.async_started') {
      rows.push({ kind: 'async_started', seq: e.seq, id: e.id, event: e.event, matcher: e.matcher, label: hookRunLabel(e.hook), hookType: e.hook.type, rewake: e.rewake });
    } else if (e.type === 'hook.config_error') {
      rows.push({ kind: 'config_error', seq: e.seq, event: e.event, matcher: e.matcher, message: e.message });
    }
  }
  return rows;
}

/** Tools hidden by the pre-filter, per run (the event comes once per run when any are). */
export function prefilterOf(events: readonly TraceEvent[]): Ev<'permission.prefilter'>[] {
  return events.filter((e): e is Ev<'permission.prefilter'> => e.type === 'permission.prefilter');
}

const MAX_SUMMARY = 300;

/** A one-line summary of a tool input for the audit log: the command, the path, or short JSON. */
export function inputSummary(name: string, input: unknown): string {
  const o = (input ?? {}) as Record<string, unknown>;
  let text: string;
  if (name === 'bash' && typeof o.command === 'string') text = o.command;
  else if (typeof o.file_path === 'string') text = o.file_path;
  else if (typeof o.pattern === 'string') text = `${o.pattern}${typeof o.path === 'string' ? ` in ${o.path}` : ''}`;
  else {
    try {
      text = JSON.stringify(input) ?? '';
    } catch {
      text = String(input);
    }
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}

export type AuditRecord = {
  seq: number;
  ts: number;
  agentId: string;
  toolUseId: string;
  tool: string;
  input: string;
  stage: StageName;
  decidedBy: string;
  decision: 'allow' | 'deny';
  reason: string;
};

/** Every `permission.decision` of the session, with the call's input summarised. */
export function auditRecords(events: readonly TraceEvent[]): AuditRecord[] {
  const inputs = new Map<string, unknown>();
  const out: AuditRecord[] = [];
  for (const e of events) {
    if (e.type === 'tool.proposed') inputs.set(e.toolUseId, e.input);
    else if (e.type === 'permission.decision') {
      out.push({
        seq: e.seq,
        ts: e.ts,
        agentId: e.agentId,
        toolUseId: e.toolUseId,
        tool: e.name,
        input: inputSummary(e.name, inputs.get(e.toolUseId)),
        stage: e.stage,
        decidedBy: decidedByText(e.decidedBy),
        decision: e.decision,
        reason: e.reason,
      });
    }
  }
  return out;
}

/** The audit records as JSON lines (one object per line, newline-terminated), every string redacted (`secrets`: the API key in use). */
export function auditJsonLines(events: readonly TraceEvent[], secrets: readonly string[] = []): string {
  return auditRecords(events)
    .map((r) => JSON.stringify(redactDeep(r, secrets)))
    .join('\n')
    .concat(events.some((e) => e.type === 'permission.decision') ? '\n' : '');
}
