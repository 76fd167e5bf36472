/**
 * The rules and mode stages together, shared by the live pipeline and what-if replays. Pure: it
 * runs no hook and asks no one; it says whether the call is allowed, denied, or would need a person.
 */
import { callFacts, type CallFacts } from './call-facts.ts';
import { evaluateRules, type RulesVerdict } from './evaluate.ts';
import { isReadOnlyCall, modeStage } from './modes.ts';
import type { DecidedBy, PermissionContext, SourcedRule, StageResult } from './types.ts';

export type JudgeInput = {
  name: string;
  input: unknown;
  ctx: PermissionContext;
  /** Extra rules after the settings' (session grants). */
  extraRules?: readonly SourcedRule[];
  toolReadOnly: boolean;
  /** The tool's own check asked: only an allow rule or a person settles it. */
  toolAsk?: { reason: string; decidedBy: DecidedBy };
  /** A PreToolUse hook asked: a person must decide (unless a rule denies). */
  hookAsk?: { reason: string; decidedBy: DecidedBy };
  /** A PreToolUse hook allowed: it settles what rules leave open, never a deny or ask rule. */
  hookAllow?: { reason: string; decidedBy: DecidedBy };
};

export type JudgeResult = {
  facts: CallFacts;
  verdict: RulesVerdict;
  /** The stages run (`rules`, then `mode` when the rules did not settle it). `final` may be the hooks stage. */
  stages: StageResult[];
  /** The last stage's verdict: allow, deny or ask. */
  final: StageResult & { decision: 'allow' | 'deny' | 'ask' };
};

export function judge(j: JudgeInput): JudgeResult {
  const { ctx } = j;
  const cwd = ctx.cwd ?? ctx.workdir;
  const facts = callFacts(j.name, j.input, cwd, ctx.workdir, ctx.shell);
  const rules = j.extraRules ? [...ctx.rules, ...j.extraRules] : ctx.rules;
  const verdict = evaluateRules(facts, rules, ctx.workdir, ctx.additionalDirectories);
  const rulesStage: StageResult = {
    stage: 'rules',
    decision: verdict.decision,
    reason: verdict.reason,
    ...(verdict.decidedBy ? { decidedBy: verdict.decidedBy } : {}),
  };
  const stages: StageResult[] = [rulesStage];
  const done = (final: StageResult) => ({ facts, verdict, stages, final: final as JudgeResult['final'] });

  if (verdict.decision === 'deny') return done(rulesStage);
  const readOnly = isReadOnlyCall(facts, j.toolReadOnly);
  const planBlocks = ctx.mode === 'plan' && !readOnly;
  // An allow rule settles the call (and the tool's own ask) — unless a hook asked, or plan mode
  // refuses anything that is not read-only.
  if (verdict.decision === 'allow' && !j.hookAsk && !planBlocks) return done(rulesStage);
  if (verdict.decision === 'passthrough' && j.hookAllow && !j.hookAsk && !planBlocks) {
    // The hooks stage (already reported) decides; no mode stage runs.
    return done({ stage: 'hooks', decision: 'allow', reason: `a PreToolUse hook allowed it: ${j.hookAllow.reason}`, decidedBy: j.hookAllow.decidedBy });
  }
  const m = modeStage({
    mode: ctx.mode,
    facts,
    verdict,
    toolReadOnly: j.toolReadOnly,
    ...(j.hookAsk ? { pendingAsk: j.hookAsk } : verdict.decision !== 'allow' && j.toolAsk ? { pendingAsk: j.toolAsk } : {}),
    workdir: ctx.workdir,
  });
  stages.push(m);
  return done(m);
}
