/**
 * The `hooks` key of settings, in Claude Code's shape:
 *
 * ```json
 * { "PreToolUse": [{ "matcher": "bash", "hooks": [{ "type": "command", "command": "./check.sh", "timeout": 30 }] }] }
 * ```
 *
 * Plus our own `{ "type": "js", "name": "…", "code": "<body of an async function (input)>" }` hook
 * for prototyping in the browser (see `src/hooks-runtime/`). Timeouts are in seconds, as in
 * Claude Code. Unknown event names and unknown hook types are errors that say what is allowed,
 * rather than being dropped silently.
 */
import { z } from 'zod';
import { parseRule } from '../permissions/rules.ts';
import { HOOK_EVENTS, isHookEventName, type HookEventName } from './events.ts';

export {
  HOOK_EVENTS,
  HOOK_EVENTS_NOT_FIRED,
  HOOK_EVENTS_FIRED,
  CLAUDE_CODE_HOOK_EVENTS,
  CLAUDE_CODE_HOOK_TYPES,
  HOOK_TYPES_RUN_HERE,
  isHookEventName,
  DEFAULT_HOOK_TIMEOUT_S,
  type HookEventName,
} from './events.ts';

const timeoutSchema = z
  .number({ error: 'timeout must be a number of seconds' })
  .positive({ error: 'timeout must be a positive number of seconds' })
  .max(3600, { error: 'timeout is in seconds and at most 3600 (one hour)' });

/** A handler's `if`: permission-rule syntax (`Bash(git *)`); the handler runs only for tool calls it names. */
const conditionSchema = z.string().superRefine((text, ctx) => {
  const parsed = parseRule(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `"if" takes a permission rule, e.g. "Bash(git *)": ${parsed.error}` });
});

export const commandHookSchema = z.object({
  type: z.literal('command'),
  if: conditionSchema.optional(),
  command: z.string().trim().min(1, { error: 'a command hook needs a non-empty "command"' }),
  timeout: timeoutSchema.optional(),
  /** Claude Code's `async`: run in the background; the event does not wait (`async-hooks.ts`). */
  async: z.boolean().optional(),
  /** Claude Code's `asyncRewake`: background too (implies `async`); exit 2 wakes the agent with the hook's stderr. */
  asyncRewake: z.boolean().optional(),
});

export const jsHookSchema = z.object({
  type: z.literal('js'),
  if: conditionSchema.optional(),
  /** Shown in traces and the hooks timeline; defaults to `js hook`. */
  name: z.string().optional(),
  /** The body of `async function (input) { … }`; see `JsHookRunner` in ports.ts. */
  code: z.string().min(1, { error: 'a js hook needs a non-empty "code" (a function body)' }),
  timeout: timeoutSchema.optional(),
});

/** Claude Code's `type: "prompt"`: a model judges the event (`prompt-hook.ts`); `$ARGUMENTS` is the input JSON. */
export const promptHookSchema = z.object({
  type: z.literal('prompt'),
  if: conditionSchema.optional(),
  prompt: z.string().trim().min(1, { error: 'a prompt hook needs a non-empty "prompt"' }),
  model: z.string().optional(),
  timeout: timeoutSchema.optional(),
});

/** An env var name as Claude Code's `allowedEnvVars` lists it: a bare name, no `$`. */
const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'allowedEnvVars lists bare variable names, e.g. "MY_TOKEN" (no "$")' });

/**
 * Claude Code's `type: "http"`: the input JSON is POSTed to `url` (`http-hook.ts`); header values
 * may use `$VAR` / `${VAR}`, filled only for names in `allowedEnvVars` (others become empty).
 */
export const httpHookSchema = z.object({
  type: z.literal('http'),
  if: conditionSchema.optional(),
  url: z.string().refine((u) => /^https?:\/\/[^\s/]+/i.test(u.trim()), { error: 'an http hook needs an http(s) "url"' }),
  headers: z.record(z.string(), z.string()).optional(),
  allowedEnvVars: z.array(envVarName).optional(),
  timeout: timeoutSchema.optional(),
});

function hookTypeMessage(type: unknown): string {
  return type === undefined
    ? 'a hook needs "type": "command", "prompt", "http" or "js"'
    : `unknown hook type ${JSON.stringify(type)}: use "command", "prompt", "http" or "js"`;
}

export const hookDefinitionSchema = z.discriminatedUnion('type', [commandHookSchema, promptHookSchema, httpHookSchema, jsHookSchema], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? hookTypeMessage((issue.input as { type?: unknown } | undefined)?.type)
      : undefined,
});

export const hookMatcherGroupSchema = z.object({
  /** `*` or empty = every tool; `A|B` = exact names; else an anchored, case-sensitive regex. */
  matcher: z.string().optional(),
  hooks: z.array(hookDefinitionSchema),
});

export type CommandHook = z.infer<typeof commandHookSchema>;
export type JsHook = z.infer<typeof jsHookSchema>;
export type PromptHook = z.infer<typeof promptHookSchema>;
export type HttpHook = z.infer<typeof httpHookSchema>;
export type HookDefinition = z.infer<typeof hookDefinitionSchema>;
export type HookMatcherGroup = z.infer<typeof hookMatcherGroupSchema>;
/** Validated hooks settings: an event name → its matcher groups, in config order. */
export type HooksConfig = Partial<Record<HookEventName, HookMatcherGroup[]>>;

/**
 * The zod schema for settings' `hooks` key. Parses to {@link HooksConfig}. An unknown event
 * name fails with a message naming it and listing the valid ones (case matters, as in Claude Code).
 */
export const hooksConfigSchema = z
  .record(z.string(), z.array(hookMatcherGroupSchema))
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (!isHookEventName(key)) {
        const near = HOOK_EVENTS.find((e) => e.toLowerCase() === key.toLowerCase());
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message:
            `unknown hook event "${key}"` +
            (near ? ` (did you mean "${near}"? names are case-sensitive)` : '') +
            `; valid events: ${HOOK_EVENTS.join(', ')}`,
        });
      }
    }
  })
  .transform((value) => value as HooksConfig);

/** A readable one-line-per-problem rendering of a failed parse: `PreToolUse.0.hooks.0.command: …`. */
export function formatHooksConfigError(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `hooks.${path}: ${issue.message}` : `hooks: ${issue.message}`;
  });
}

/** Parse the `hooks` value of a settings document (JSON or YAML). */
export function parseHooksConfig(
  raw: unknown,
): { ok: true; config: HooksConfig } | { ok: false; errors: string[] } {
  const result = hooksConfigSchema.safeParse(raw ?? {});
  return result.success ? { ok: true, config: result.data } : { ok: false, errors: formatHooksConfigError(result.error) };
}
