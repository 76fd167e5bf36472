/**
 * Scenario v0: one JSON document that sets up a run — files, prompt, model, settings — validated
 * with zod so a scenario from a file or a link is checked before anything uses it.
 */
import { z } from 'zod';
import { scriptedTurnSchema } from '../model/scripted/script.ts';
import { hooksConfigSchema } from '../harness/hooks/index.ts';
import { contextSettingsSchema } from '../harness/context/index.ts';
import { permissionsSettingsSchema, yamlTierRuleSchema } from '../harness/settings/index.ts';
import { customToolsSchema } from '../harness/tools/index.ts';
import { goldenCasesSchema } from '../harness/golden/light.ts';

export { scenarioHeader, harnessSettingsOf } from './shape.ts';

/** Paths relative to the working directory: no absolute paths, no climbing out with `..`. */
const filesSchema = z.record(z.string(), z.string()).superRefine((files, ctx) => {
  for (const path of Object.keys(files)) {
    if (path === '' || path.startsWith('/') || path.split('/').includes('..')) {
      ctx.addIssue({
        code: 'custom',
        path: [path],
        message: 'file paths must be relative to /home/project and must not contain ".."',
      });
    }
  }
});

export const scenarioSettingsSchema = z
  .object({
    maxTurns: z.number().int().min(1).max(500).default(20),
    maxTokens: z.number().int().min(1).max(128_000).default(4096),
    /** A dollar ceiling: the run stops before the model call that would cross it (`max_budget`; src/harness/cost/). */
    maxBudgetUsd: z.number().positive().max(10_000).optional(),
    /** The model to switch to when the model stays overloaded or is not found (Claude Code's `--fallback-model`). */
    fallbackModel: z.string().min(1).max(200).optional(),
    system: z.string().optional(),
    sandbox: z.enum(['auto', 'just-bash', 'webcontainer']).default('just-bash'),
    /** The context pipeline: window, auto-compact threshold, each layer's switches. */
    context: contextSettingsSchema.partial().optional(),
    /**
     * Keep rarely used tools deferred behind `tool_search` (schemas sent once loaded; see
     * `harness/loop/deferred-tools.ts`). Live runs defer by default; a scripted scenario opts in.
     */
    deferTools: z.boolean().optional(),
    // Claude Code's settings.json keys (and seed 003's YAML tiers). Anything here that can act —
    // hooks, allow rules, permissive modes — applies only once the scenario is trusted.
    permissions: permissionsSettingsSchema.optional(),
    hooks: hooksConfigSchema.optional(),
    always_deny: z.array(yamlTierRuleSchema).optional(),
    always_allow: z.array(yamlTierRuleSchema).optional(),
    ask_user: z.array(yamlTierRuleSchema).optional(),
    // MCP: Claude Code's approval keys for the project's .mcp.json servers (src/harness/mcp/project-trust.ts)
    enableAllProjectMcpServers: z.boolean().optional(),
    enabledMcpjsonServers: z.array(z.string()).optional(),
    disabledMcpjsonServers: z.array(z.string()).optional(),
    // agents (src/harness/agents/): opt-in tools, and steering messages fixed in advance
    /** Agent tools this scenario's runs get: `skills` (on anyway when skills exist), `tasks`, `background`. */
    agentTools: z.array(z.enum(['skills', 'tasks', 'background', 'teams'])).optional(),
    /** Teams (with `agentTools: ["teams"]`): how long a protocol request waits for its answer. */
    team: z
      .object({
        requestTimeoutMs: z.number().int().min(100).max(600_000).optional(),
        /** How long a gone teammate's claimed tasks wait for it before they return to the board. */
        releaseAfterMs: z.number().int().min(0).max(600_000).optional(),
        /** How long a teammate has to answer the shutdown request sent when the lead's run ends. */
        endTimeoutMs: z.number().int().min(100).max(600_000).optional(),
        /** How long a teammate spawned `in_tab` waits for a tab to join as it (then it is gone and the lead is told). */
        joinTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
        /** How often a tab on the team's channel says it is alive. */
        heartbeatMs: z.number().int().min(50).max(60_000).optional(),
        /** Heartbeats a teammate's tab may miss before the lead's tab marks it gone. */
        missedBeats: z.number().int().min(2).max(100).optional(),
      })
      .strict()
      .optional(),
    /** Messages "typed while the agent works", delivered at the safe point before model call `beforeTurn` (2 or more). */
    steering: z
      .array(z.object({ beforeTurn: z.number().int().min(2).max(500), message: z.string().min(1).max(10_000) }).strict())
      .max(50)
      .optional(),
    /** Tools defined in the browser (`harness/tools/custom/`); they act, so they wait for trust like hooks. */
    customTools: customToolsSchema.optional(),
    /** Recorded tool calls kept as regression tests (`harness/golden/`). */
    golden: goldenCasesSchema.optional(),
    /** Start the files as a git repository with one commit (see `git-seed.ts`). */
    git: z
      .object({
        init: z.boolean().default(true),
        message: z.string().min(1).max(500).default('initial commit'),
      })
      .strict()
      .optional(),
  })
  .strict();

export const scenarioModelSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('scripted'),
      turns: z.array(scriptedTurnSchema).min(1),
      /** Subagents' turns, keyed by the `description` of the parent's `agent` call (or the agent type). */
      agents: z.record(z.string().min(1), z.array(scriptedTurnSchema).min(1)).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('anthropic'), model: z.string().min(1) }).strict(),
]);

export const scenarioSchema = z
  .object({
    version: z.literal(0).default(0),
    id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case words joined by hyphens'),
    title: z.string().min(1).max(200),
    description: z.string().max(2000).default(''),
    /** Lesson notes, markdown; rendered sanitised. */
    notes: z.string().max(20_000).optional(),
    prompt: z.string().min(1),
    files: filesSchema.default({}),
    model: scenarioModelSchema,
    settings: scenarioSettingsSchema.default({ maxTurns: 20, maxTokens: 4096, sandbox: 'just-bash' }),
  })
  .strict();

export type Scenario = z.output<typeof scenarioSchema>;

/** What names and describes a scenario; the same fields in every format version. */
export type ScenarioHeader = Pick<Scenario, 'id' | 'title' | 'description' | 'notes'>;

export type ScenarioInput = z.input<typeof scenarioSchema>;

export type ScenarioParse = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

/** Validates unknown JSON; errors name the field path and the problem. */
export function parseScenario(json: unknown): ScenarioParse {
  const r = scenarioSchema.safeParse(json);
  if (r.success) return { ok: true, scenario: r.data };
  return {
    ok: false,
    errors: r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`),
  };
}
