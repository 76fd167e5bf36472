/**
 * `permissionPipeline`: every check between a tool call's proposal and its execution, one
 * `permission.stage` event per stage, in order:
 *
 *   validate → tool_check → hooks → rules → mode → prompt
 *
 * A deny at any stage ends it. An allow from the rules (or the mode, or a read-only call) ends it
 * before the prompt. A hook's allow settles only what the rules leave open — never a deny or ask
 * rule (observed in Claude Code) — and a hook's `updatedInput` is validated again and then judged
 * by the rules like the original. The last event is `permission.decision`, the audit record.
 */
import type { RejectedCall, ValidatedCall } from '../tools/run-tool.ts';
import type { PermissionCheckResult } from '../tools/tool.ts';
import type { TraceEventBody } from '../trace.ts';
import { judge } from './judge.ts';
import { suggestRules, type SessionGrants } from './session-grants.ts';
import type { CallRef, DecidedBy, PermissionContext, StageName, StageResult } from './types.ts';

/** What the PreToolUse hooks decided, merged (deny > ask > allow), as the hooks module reports it. */
export type HookVerdict = {
  decision?: 'allow' | 'deny' | 'ask';
  reason?: string;
  /** The replacement input a hook asked for. */
  updatedInput?: unknown;
  /** Which hook decided, for the stage strip (e.g. its command). */
  source?: string;
};

export type PromptRequest = {
  toolUseId: string;
  name: string;
  input: unknown;
  reason: string;
  suggestions: string[];
  /** Set when a subagent asks: which one, so the person knows who wants to act. */
  agent?: { id: string; label: string };
};

export type PromptAnswer = { decision: 'allow_once' | 'allow_session' | 'deny'; message?: string };

/** What the PermissionRequest hooks decided; `message` (a deny's) goes to the model. */
export type PermissionRequestVerdict = {
  decision: 'allow' | 'deny';
  message?: string;
  source?: string;
  /** An allow's replacement input (`decision.updatedInput`): validated against the tool's schema and checked again. */
  updatedInput?: Record<string, unknown>;
};

export type PipelineEnv = {
  permissions: PermissionContext;
  /** Schema + `validateInput` for an input of this call's tool (`validateToolCall` bound to the call). */
  validate: (input: unknown) => Promise<ValidatedCall | RejectedCall>;
  /** Runs the PreToolUse hooks for this (validated) input. Absent: no hooks configured or trusted. */
  preToolUseHooks?: (input: unknown) => Promise<HookVerdict>;
  /**
   * The PermissionRequest hooks, run when the call would need a person — before the prompt, and
   * in headless runs too (Claude Code's PermissionRequest hooks decide in non-interactive runs).
   * An `allow` or `deny` settles the call; `null` (no hook decided) goes on to the person, or to
   * the headless deny. Absent: no such hooks are configured or trusted.
   */
  permissionRequestHooks?: (request: PromptRequest) => Promise<PermissionRequestVerdict | null>;
  /** Asks a person. Absent in headless runs: what would need approval is denied. */
  prompt?: (request: PromptRequest) => Promise<PromptAnswer>;
  /** Where "allow for this session" puts its rules; they are consulted on every later call. */
  session?: SessionGrants;
};

export type PipelineResult =
  | { decision: 'allow'; call: ValidatedCall; stage: StageName; decidedBy: DecidedBy }
  /** `message` is what the model gets as the `is_error` tool_result. */
  | { decision: 'deny'; message: string; stage: StageName; decidedBy: DecidedBy };

/**
 * Why a PermissionRequest hook's rewritten (schema-valid) input is still refused, if it is: the
 * tool's own check or a deny rule — as with PreToolUse, the hook answered the prompt, not the rules.
 */
async function rewriteRefusal(v: ValidatedCall, ctx: PermissionContext, session: SessionGrants | undefined): Promise<string | undefined> {
  const tc = await toolCheck(v, ctx);
  if (tc.decision === 'deny') return `the tool refuses the new input: ${tc.reason}`;
  const j = judge({ name: v.tool.name, input: v.input, ctx, ...(session ? { extraRules: session.rules } : {}), toolReadOnly: safeReadOnly(v) });
  return j.final.decision === 'deny' ? `the new input is denied: ${j.final.reason}` : undefined;
}

export const HEADLESS_DENY = 'no rule allowed this and there is no one to ask';

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

async function toolCheck(v: ValidatedCall, ctx: PermissionContext): Promise<StageResult> {
  const check = v.tool.checkPermissions;
  if (!check) return { stage: 'tool_check', decision: 'passthrough', reason: `${v.tool.name} has no check of its own` };
  let r: PermissionCheckResult;
  try {
    r = await check(v.input, { cwd: ctx.cwd ?? ctx.workdir, workdir: ctx.workdir, ...(ctx.additionalDirectories ? { additionalDirectories: ctx.additionalDirectories } : {}) });
  } catch (e) {
    // A broken check must not open the door: treat it as needing a person.
    r = { behavior: 'ask', message: `the ${v.tool.name} tool's permission check failed: ${errorText(e)}` };
  }
  const by: DecidedBy = { kind: 'tool', text: `${v.tool.name}.checkPermissions` };
  return { stage: 'tool_check', decision: r.behavior, reason: r.message ?? (r.behavior === 'passthrough' ? 'nothing special' : r.behavior), decidedBy: by };
}

export async function* permissionPipeline(call: CallRef, env: PipelineEnv): AsyncGenerator<TraceEventBody, PipelineResult> {
  const { toolUseId, name } = call;
  const ctx = env.permissions;
  const stage = (r: StageResult): TraceEventBody => ({ type: 'permission.stage', toolUseId, name, ...r });
  const decision = (d: 'allow' | 'deny', s: StageName, reason: string, decidedBy: DecidedBy): TraceEventBody => ({
    type: 'permission.decision',
    toolUseId,
    name,
    decision: d,
    stage: s,
    reason,
    decidedBy,
  });

  // 1. validate
  let v = await env.validate(call.input);
  if (!v.ok) {
    const by: DecidedBy = { kind: 'tool', text: 'validateInput' };
    yield stage({ stage: 'validate', decision: 'deny', reason: v.message, decidedBy: by });
    yield decision('deny', 'validate', v.message, by);
    return { decision: 'deny', message: v.message, stage: 'validate', decidedBy: by };
  }
  yield stage({ stage: 'validate', decision: 'passthrough', reason: 'the input is valid' });

  // 2. tool_check
  let tc = await toolCheck(v, ctx);
  yield stage(tc);
  if (tc.decision === 'deny') return yield* denied('tool_check', tc.reason, tc.decidedBy!);

  // 3. hooks
  let hookAsk: { reason: string; decidedBy: DecidedBy } | undefined;
  let hookAllow: { reason: string; decidedBy: DecidedBy } | undefined;
  if (!env.preToolUseHooks) {
    yield stage({ stage: 'hooks', decision: 'passthrough', reason: 'no PreToolUse hooks' });
  } else {
    let h: HookVerdict;
    try {
      h = await env.preToolUseHooks(v.input);
    } catch (e) {
      // Hooks are advisors: a failing hook never stops the agent unless it asks to block.
      h = { reason: `the PreToolUse hooks failed (ignored): ${errorText(e)}` };
    }
    const by: DecidedBy = { kind: 'hook', text: h.source ?? 'PreToolUse hook' };
    const reason = h.reason ?? (h.decision ? `a hook answered ${h.decision}` : 'no hook decided');
    if (h.decision === 'deny') {
      yield stage({ stage: 'hooks', decision: 'deny', reason, decidedBy: by });
      return yield* denied('hooks', `a PreToolUse hook denied it: ${reason}`, by);
    }
    let rewritten = '';
    if (h.updatedInput !== undefined) {
      const v2 = await env.validate(h.updatedInput);
      if (!v2.ok) {
        const why = `a PreToolUse hook rewrote the input, and the new input is invalid: ${v2.message}`;
        yield stage({ stage: 'hooks', decision: 'deny', reason: why, decidedBy: by });
        return yield* denied('hooks', why, by);
      }
      v = v2;
      rewritten = ' (input rewritten by the hook; checked again)';
      tc = await toolCheck(v, ctx);
      if (tc.decision === 'deny') {
        yield stage({ stage: 'hooks', decision: 'deny', reason: `the rewritten input: ${tc.reason}`, decidedBy: tc.decidedBy! });
        return yield* denied('hooks', `the input a PreToolUse hook rewrote is refused by the tool: ${tc.reason}`, tc.decidedBy!);
      }
    }
    if (h.decision === 'ask') hookAsk = { reason: `a PreToolUse hook asks: ${reason}`, decidedBy: by };
    if (h.decision === 'allow') hookAllow = { reason, decidedBy: by };
    yield stage({ stage: 'hooks', decision: h.decision ?? 'passthrough', reason: reason + rewritten, ...(h.decision ? { decidedBy: by } : {}) });
  }
  const toolAsk = tc.decision === 'ask' ? { reason: tc.reason, decidedBy: tc.decidedBy! } : undefined;

  // 4. rules and 5. mode
  const j = judge({
    name,
    input: v.input,
    ctx,
    ...(env.session ? { extraRules: env.session.rules } : {}),
    toolReadOnly: safeReadOnly(v),
    ...(toolAsk ? { toolAsk } : {}),
    ...(hookAsk ? { hookAsk } : {}),
    ...(hookAllow ? { hookAllow } : {}),
  });
  for (const s of j.stages) yield stage(s);
  const final = j.final;
  const finalBy: DecidedBy = final.decidedBy ?? { kind: 'default', text: final.stage };
  if (final.decision === 'deny') return yield* denied(final.stage, final.reason, finalBy);
  if (final.decision === 'allow') {
    yield decision('allow', final.stage, final.reason, finalBy);
    return { decision: 'allow', call: v, stage: final.stage, decidedBy: finalBy };
  }

  // 6. prompt — PermissionRequest hooks first (headless too), then a person
  const suggestions = suggestRules({ name, input: v.input }, { workdir: ctx.workdir, ...(ctx.cwd ? { cwd: ctx.cwd } : {}), ...(ctx.shell ? { shell: ctx.shell } : {}) });
  if (env.permissionRequestHooks) {
    let h: PermissionRequestVerdict | null;
    try {
      h = await env.permissionRequestHooks({ toolUseId, name, input: v.input, reason: final.reason, suggestions });
    } catch {
      h = null; // hooks are advisors: a failing one leaves the decision to the person (or the headless deny)
    }
    if (h) {
      const by: DecidedBy = { kind: 'hook', text: h.source ?? 'PermissionRequest hook' };
      if (h.decision === 'deny') {
        const why = `a PermissionRequest hook denied it: ${h.message ?? 'no reason given'}`;
        yield stage({ stage: 'prompt', decision: 'deny', reason: why, decidedBy: by });
        return yield* denied('prompt', why, by);
      }
      let call = v;
      let rewritten = '';
      if (h.updatedInput !== undefined) {
        // As with PreToolUse: the new input must fit the tool's schema, and what the tool's own
        // check or a deny rule refuses stays refused — the hook answered the prompt, not the rules.
        const v2 = await env.validate(h.updatedInput);
        if (!v2.ok) return yield* refuseRewrite(`the new input is invalid: ${v2.message}`, by);
        const refused = await rewriteRefusal(v2, ctx, env.session);
        if (refused) return yield* refuseRewrite(refused, by);
        call = v2;
        rewritten = ' (input rewritten by the hook; checked again)';
      }
      const why = `a PermissionRequest hook allowed it${h.message ? `: ${h.message}` : ''}${rewritten}`;
      yield stage({ stage: 'prompt', decision: 'allow', reason: why, decidedBy: by });
      yield decision('allow', 'prompt', why, by);
      return { decision: 'allow', call, stage: 'prompt', decidedBy: by };
    }
  }
  if (!env.prompt) {
    const by: DecidedBy = { kind: 'default', text: 'headless' };
    const why = `${HEADLESS_DENY}. Approval was needed because ${final.reason}`;
    yield stage({ stage: 'prompt', decision: 'deny', reason: why, decidedBy: by });
    return yield* denied('prompt', why, by);
  }
  yield { type: 'permission.prompt', toolUseId, name, input: v.input, reason: final.reason, suggestions };
  let answer: PromptAnswer;
  try {
    answer = await env.prompt({ toolUseId, name, input: v.input, reason: final.reason, suggestions });
  } catch (e) {
    answer = { decision: 'deny', message: `the prompt failed: ${errorText(e)}` };
  }
  if (answer.decision === 'deny') {
    const by: DecidedBy = { kind: 'user', text: 'denied' };
    const why = `The user declined this ${name} call${answer.message ? `. Their message: ${answer.message}` : '.'}`;
    yield stage({ stage: 'prompt', decision: 'deny', reason: why, decidedBy: by });
    return yield* denied('prompt', why, by);
  }
  let reason = 'the user allowed it once';
  if (answer.decision === 'allow_session') {
    const added = env.session?.add(suggestions).added ?? [];
    reason = added.length > 0 ? `the user allowed it for this session (added ${added.join(', ')})` : 'the user allowed it for this session';
  }
  const by: DecidedBy = { kind: 'user', text: answer.decision === 'allow_session' ? 'allow for this session' : 'allow once' };
  yield stage({ stage: 'prompt', decision: 'allow', reason, decidedBy: by });
  yield decision('allow', 'prompt', reason, by);
  return { decision: 'allow', call: v, stage: 'prompt', decidedBy: by };

  async function* denied(s: StageName, reason: string, by: DecidedBy): AsyncGenerator<TraceEventBody, PipelineResult> {
    yield decision('deny', s, reason, by);
    return { decision: 'deny', message: denyMessage(name, s, reason), stage: s, decidedBy: by };
  }

  async function* refuseRewrite(refused: string, by: DecidedBy): AsyncGenerator<TraceEventBody, PipelineResult> {
    const why = `a PermissionRequest hook allowed it with a rewritten input, and ${refused}`;
    yield stage({ stage: 'prompt', decision: 'deny', reason: why, decidedBy: by });
    return yield* denied('prompt', why, by);
  }
}

function safeReadOnly(v: ValidatedCall): boolean {
  try {
    return v.tool.isReadOnly(v.input);
  } catch {
    return false;
  }
}

/** The `is_error` tool_result text: which stage refused, and why. */
function denyMessage(name: string, s: StageName, reason: string): string {
  const r = reason.replace(/[.\s]+$/, '');
  if (s === 'prompt') return `Permission for ${name} was not granted: ${r}. Do not retry the same call; adjust your approach or ask the user.`;
  return `Permission to use ${name} was denied (${s} stage): ${r}. Do not retry the same call; find another way or ask the user.`;
}
