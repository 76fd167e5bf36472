/**
 * The settings document: Claude Code's `settings.json` shape (`permissions.allow|ask|deny`,
 * `defaultMode`, `hooks`) and seed 003's YAML tiers (`always_deny`, `always_allow`, `ask_user`:
 * regexes over a one-line summary of the call — the command for bash, the path for file tools).
 * Both may appear in one document (file). Unknown top-level keys (Claude Code has many) are kept.
 */
import { z } from 'zod';
import { hooksConfigSchema } from '../hooks/config.ts';
import { parseRule } from '../permissions/rules.ts';
import { PERMISSION_MODES } from '../permissions/types.ts';
import { compileSafeRegex } from '../util/safe-regex.ts';

const ruleString = z.string().superRefine((text, ctx) => {
  const parsed = parseRule(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error });
});

/** Tier patterns run on RE2 (linear time, see `util/safe-regex.ts`): refuse what it cannot run. */
function regexIssue(pattern: string): string | null {
  const r = compileSafeRegex(pattern, { ignoreCase: true });
  return r.ok ? null : r.error;
}

const regexString = z.string().min(1).superRefine((p, ctx) => {
  const why = regexIssue(p);
  if (why) ctx.addIssue({ code: 'custom', message: why });
});

/** One YAML tier entry: a bare regex, or `{pattern, reason?, tool?}` (`tool` is a regex over tool names). */
export const yamlTierRuleSchema = z.union([
  regexString,
  z.strictObject({ pattern: regexString, reason: z.string().optional(), tool: regexString.optional() }),
]);

export const permissionsSettingsSchema = z.strictObject({
  allow: z.array(ruleString).optional(),
  ask: z.array(ruleString).optional(),
  deny: z.array(ruleString).optional(),
  defaultMode: z.enum(PERMISSION_MODES).optional(),
  additionalDirectories: z.array(z.string()).optional(),
  disableBypassPermissionsMode: z.literal('disable').optional(),
});

export const settingsSchema = z.looseObject({
  permissions: permissionsSettingsSchema.optional(),
  hooks: hooksConfigSchema.optional(),
  always_deny: z.array(yamlTierRuleSchema).optional(),
  always_allow: z.array(yamlTierRuleSchema).optional(),
  ask_user: z.array(yamlTierRuleSchema).optional(),
  /** Claude Code's switch that turns every hook off (managed hooks stay unless managed settings say it). */
  disableAllHooks: z.boolean().optional(),
  /** Environment variables for the run's commands (the sandbox's environment). */
  env: z.record(z.string(), z.string()).optional(),
  /** The model the run uses, when nothing more specific (the runner's `--model`, the page's choice) says another. */
  model: z.string().min(1).optional(),
});

export type Settings = z.infer<typeof settingsSchema>;
export type YamlTierRule = z.infer<typeof yamlTierRuleSchema>;
