/**
 * `runToolCall`: one tool call from proposal to result — find the tool, check the input against
 * its schema, run `validateInput`, run `call`, cap the result. Every failure becomes an `isError`
 * outcome the model can act on. No events here: the loop emits them around this call and
 * decides about concurrency.
 */
import type { z } from 'zod';
import { truncateHeadTail } from '../util/truncate.ts';
import type { AnyTool, ToolContext, ToolOutcome } from './tool.ts';

export type ToolUseRequest = { id: string; name: string; input: unknown };

export type ToolCallRun = {
  outcome: ToolOutcome;
  /** Whether the call got past the name, schema and `validateInput` checks (for `tool.validated`). */
  validation: { ok: boolean; error?: string };
};

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/** One line per problem: which field, what was expected, what came. Not a raw zod dump. */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string[] {
  return issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(the input)';
    const got = valueAt(input, issue.path);
    switch (issue.code) {
      case 'invalid_type':
        if (got === undefined) return `${field}: missing; it is required (${issue.expected}).`;
        return `${field}: expected ${issue.expected}, got ${describeValue(got)}.`;
      case 'unrecognized_keys':
        return `${field}: unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; remove ${issue.keys.length === 1 ? 'it' : 'them'} or check the spelling.`;
      case 'invalid_value':
        return `${field}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}; got ${describeValue(got)}.`;
      case 'too_small':
        if (issue.origin === 'string') return `${field}: must be at least ${String(issue.minimum)} character${Number(issue.minimum) === 1 ? '' : 's'} long.`;
        return `${field}: must be ${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}; got ${describeValue(got)}.`;
      case 'too_big':
        if (issue.origin === 'string') return `${field}: must be at most ${String(issue.maximum)} characters long.`;
        return `${field}: must be ${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}; got ${describeValue(got)}.`;
      default:
        return `${field}: ${issue.message}.`;
    }
  });
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** A call whose tool exists and whose input passed the schema and `validateInput`. */
export type ValidatedCall = { ok: true; tool: AnyTool; input: unknown };

export type RejectedCall = { ok: false; message: string };

/**
 * The checks before a call: the tool exists (in `tools`, the list the model was offered), the
 * input fits its schema (the parsed input, with defaults, is what `call` gets), and
 * `validateInput` agrees. Never throws.
 */
export async function validateToolCall(
  tools: readonly AnyTool[],
  toolUse: ToolUseRequest,
  ctx: ToolContext,
): Promise<ValidatedCall | RejectedCall> {
  return checkCall(
    tools.find((t) => t.name === toolUse.name),
    toolUse,
    ctx,
    tools,
  );
}

async function checkCall(
  tool: AnyTool | undefined,
  toolUse: ToolUseRequest,
  ctx: ToolContext,
  tools: readonly AnyTool[],
): Promise<ValidatedCall | RejectedCall> {
  if (!tool) {
    const names = tools.map((t) => t.name).join(', ');
    return { ok: false, message: `No tool is called ${JSON.stringify(toolUse.name)}. The tools you can use are: ${names || '(none)'}.` };
  }
  const parsed = tool.inputSchema.safeParse(toolUse.input);
  if (!parsed.success) {
    const lines = formatZodIssues(parsed.error.issues, toolUse.input);
    return { ok: false, message: `Invalid input for ${tool.name}:\n${lines.map((l) => `- ${l}`).join('\n')}\nFix these and call it again.` };
  }
  const input: unknown = parsed.data;
  try {
    const v = await tool.validateInput(input, { ...ctx, toolUseId: toolUse.id });
    if (!v.ok) return { ok: false, message: v.message };
  } catch (e) {
    return { ok: false, message: `The ${tool.name} tool failed while checking its input (a bug in the tool, not in your call): ${errorText(e)}` };
  }
  return { ok: true, tool, input };
}

/**
 * Runs a validated call: a thrown error is reported as a bug in the tool, and a result longer
 * than `tool.maxResultChars` is cut to head + tail. Never throws. `ctx.toolUseId` should be set.
 */
export async function executeToolCall(call: ValidatedCall, ctx: ToolContext): Promise<ToolOutcome> {
  const { tool, input } = call;
  let outcome: ToolOutcome;
  try {
    outcome = await tool.call(input, ctx);
  } catch (e) {
    outcome = {
      content: `The ${tool.name} tool failed unexpectedly (a bug in the tool, not in your call): ${errorText(e)}. Try another way to do this.`,
      isError: true,
    };
  }
  if (typeof outcome?.content !== 'string') {
    return { content: `The ${tool.name} tool returned no text result (a bug in the tool). Try another way to do this.`, isError: true };
  }
  if (outcome.content.length > tool.maxResultChars) {
    outcome = { ...outcome, content: truncateHeadTail(outcome.content, tool.maxResultChars).text };
  }
  return outcome;
}

/**
 * Validates and runs one tool call (both steps above). Never throws. `ctx.toolUseId` is set to
 * `toolUse.id`. `tool` is the looked-up tool (`undefined` when unknown); `tools` is the list the
 * model was offered, named when the tool is unknown.
 */
export async function runToolCall(
  tool: AnyTool | undefined,
  toolUse: ToolUseRequest,
  ctx: ToolContext,
  tools: readonly AnyTool[],
): Promise<ToolCallRun> {
  const callCtx: ToolContext = { ...ctx, toolUseId: toolUse.id };
  const checked = await checkCall(tool, toolUse, callCtx, tools);
  if (!checked.ok) {
    return { outcome: { content: checked.message, isError: true }, validation: { ok: false, error: checked.message } };
  }
  return { outcome: await executeToolCall(checked, callCtx), validation: { ok: true } };
}
