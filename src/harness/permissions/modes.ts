/**
 * The mode stage: what the permission mode decides about a call no rule settled.
 *
 * - `default`: ask.
 * - `acceptEdits`: file edits inside the working directory, and `rm`/`mkdir`/`cp`/`mv`/`touch`
 *   and `>` redirects whose paths are all inside it, are allowed (observed in Claude Code).
 * - `plan`: read-only exploration. Anything not read-only is DENIED, with a message telling the
 *   model it is in plan mode. Stricter than Claude Code, which asks; we deny so a plan-mode run
 *   can never change files through a hasty approval — and even an allow rule does not let a
 *   non-read-only call through in plan mode.
 * - `dontAsk`: anything not pre-allowed is denied (an ask becomes a deny).
 * - `bypassPermissions`: allowed — except the protected actions below, which no mode approves.
 *
 * Protected (no mode auto-approves them; they ask): `rm` of `/`, `~` or the working directory (or
 * everything in it), writing outside the working directory, touching `.git/` or settings files.
 * Explicit allow rules are the user's word and are honoured.
 */
import { isReadOnlyPart, type CommandPart } from './bash-command.ts';
import type { CallFacts } from './call-facts.ts';
import { describeNeeds, type RulesVerdict } from './evaluate.ts';
import { protectedPathReason } from './secret-files.ts';
import type { DecidedBy, PermissionMode, StageResult } from './types.ts';
import { dirname, isInside } from '../util/paths.ts';

export const PLAN_MODE_MESSAGE =
  'You are in plan mode: only read-only actions (reading, listing, searching) are allowed, and this one would change something. ' +
  'Do not try to work around this. Finish exploring, then present your plan and wait for the user to approve it and leave plan mode.';

const FILE_OPS = new Set(['rm', 'rmdir', 'mkdir', 'cp', 'mv', 'touch']);

function partProtected(part: CommandPart, workdir: string): string[] {
  const out: string[] = [];
  const prog = part.argv[0];
  if (prog === 'rm' || prog === 'rmdir') {
    for (const target of part.writePaths) {
      const wildcard = /[*?]/.test(target.slice(target.lastIndexOf('/') + 1));
      if (isInside(target, workdir) || (wildcard && isInside(dirname(target), workdir))) {
        out.push(`"${part.text}" deletes ${target === '/' ? 'the root directory' : `${target} (the working directory or above it)`}`);
      }
    }
  }
  for (const target of [...part.writePaths, ...part.redirectTargets]) {
    if (!isInside(workdir, target)) out.push(`"${part.text}" writes outside the working directory (${target})`);
    else {
      const why = protectedPathReason(target);
      if (why) out.push(`"${part.text}" writes ${why}`);
    }
  }
  return out;
}

/** Why no mode may auto-approve this call (empty when nothing protected is involved). */
export function protectedReasons(facts: CallFacts, workdir: string): string[] {
  if (facts.kind === 'bash') {
    if (!facts.analysis.ok) return [];
    return [...new Set(facts.analysis.parts.flatMap((p) => partProtected(p, workdir)))];
  }
  if (facts.kind === 'file' && facts.op === 'edit' && facts.path !== undefined) {
    if (!isInside(workdir, facts.path)) return [`${facts.tool} of ${facts.path}, outside the working directory`];
    const why = protectedPathReason(facts.path);
    if (why) return [`${facts.tool}: ${why}`];
  }
  return [];
}

/** A call that changes nothing: a read-only tool, or a bash command whose every part is read-only. */
export function isReadOnlyCall(facts: CallFacts, toolReadOnly: boolean): boolean {
  if (facts.kind === 'bash') return facts.analysis.ok && facts.analysis.parts.every(isReadOnlyPart);
  return toolReadOnly;
}

/** Whether acceptEdits settles everything the rules left open. */
function acceptEditsCovers(facts: CallFacts, verdict: RulesVerdict, workdir: string): boolean {
  if (facts.kind === 'file') return facts.op === 'edit' && (facts.path === undefined || isInside(workdir, facts.path));
  if (facts.kind !== 'bash' || !facts.analysis.ok || !verdict.parts) return false;
  const parts = facts.analysis.parts;
  return verdict.parts.every((pv, i) => {
    const part = parts[i];
    if (!part) return false;
    return pv.needs.every((need) => {
      if (need.kind === 'redirect') return isInside(workdir, need.target);
      if (need.kind !== 'command') return false;
      if (!FILE_OPS.has(part.argv[0] ?? '')) return false;
      const args = part.argv.slice(1).filter((a) => !a.startsWith('-'));
      return args.length > 0 && !part.dynamic.slice(1).some(Boolean) && part.writePaths.every((p) => isInside(workdir, p));
    });
  });
}

export type ModeStageInput = {
  mode: PermissionMode;
  facts: CallFacts;
  verdict: RulesVerdict;
  /** `tool.isReadOnly(input)` for the call. */
  toolReadOnly: boolean;
  /** An ask raised before the rules (the tool's own check, a hook) that only a person can settle. */
  pendingAsk?: { reason: string; decidedBy: DecidedBy };
  workdir: string;
};

/** The mode stage's verdict: allow, deny or ask (never passthrough). */
export function modeStage(input: ModeStageInput): StageResult {
  const { mode, facts, verdict, workdir } = input;
  const modeBy: DecidedBy = { kind: 'mode', text: mode };
  const readOnly = isReadOnlyCall(facts, input.toolReadOnly);
  if (mode === 'plan' && !readOnly) return { stage: 'mode', decision: 'deny', reason: PLAN_MODE_MESSAGE, decidedBy: modeBy };

  const ask =
    verdict.decision === 'ask'
      ? { reason: verdict.reason, decidedBy: verdict.decidedBy ?? modeBy }
      : input.pendingAsk;
  if (ask) {
    if (mode === 'dontAsk') {
      return { stage: 'mode', decision: 'deny', reason: `dontAsk mode denies anything not pre-allowed, and this needs approval: ${ask.reason}`, decidedBy: modeBy };
    }
    return { stage: 'mode', decision: 'ask', reason: `${ask.reason} (the ${mode} mode does not override an ask)`, decidedBy: ask.decidedBy };
  }
  if (verdict.decision === 'allow') return { stage: 'mode', decision: 'allow', reason: verdict.reason, ...(verdict.decidedBy ? { decidedBy: verdict.decidedBy } : {}) };
  // A read outside the working directory is settled by a Read allow rule or a person — never by
  // a mode, as the file tools' own outside-read check (stricter than Claude Code's bypass mode).
  const outside = verdict.needs.filter((n) => n.kind === 'outside_read');
  if (outside.length > 0) {
    const why = describeNeeds(outside);
    if (mode === 'dontAsk') return { stage: 'mode', decision: 'deny', reason: `dontAsk mode denies anything not pre-allowed: ${why}`, decidedBy: modeBy };
    return { stage: 'mode', decision: 'ask', reason: `${why} (no mode allows reads outside the working directory)`, decidedBy: { kind: 'default', text: 'outside the working directory' } };
  }
  if (readOnly) return { stage: 'mode', decision: 'allow', reason: `${facts.tool} is read-only here`, decidedBy: { kind: 'readonly', text: facts.tool } };

  const open = describeNeeds(verdict.needs) || 'no rule matched';
  switch (mode) {
    case 'default':
      return { stage: 'mode', decision: 'ask', reason: `default mode asks: ${open}`, decidedBy: modeBy };
    case 'dontAsk':
      return { stage: 'mode', decision: 'deny', reason: `dontAsk mode denies anything not pre-allowed: ${open}`, decidedBy: modeBy };
    case 'plan':
      return { stage: 'mode', decision: 'deny', reason: PLAN_MODE_MESSAGE, decidedBy: modeBy };
    case 'acceptEdits':
    case 'bypassPermissions': {
      const prot = protectedReasons(facts, workdir);
      if (prot.length > 0) {
        return { stage: 'mode', decision: 'ask', reason: `no mode auto-approves this: ${prot.join('; ')}`, decidedBy: { kind: 'default', text: 'protected action' } };
      }
      if (mode === 'bypassPermissions') return { stage: 'mode', decision: 'allow', reason: 'bypassPermissions mode allows it', decidedBy: modeBy };
      if (acceptEditsCovers(facts, verdict, workdir)) return { stage: 'mode', decision: 'allow', reason: 'acceptEdits mode allows file changes inside the working directory', decidedBy: modeBy };
      return { stage: 'mode', decision: 'ask', reason: `acceptEdits mode covers only file changes inside the working directory: ${open}`, decidedBy: modeBy };
    }
  }
}
