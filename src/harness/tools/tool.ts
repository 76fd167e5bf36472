/**
 * The Tool contract and `buildTool`, which fills fail-closed defaults: a tool that does not say
 * otherwise is treated as writing, not safe to run alongside others, and possibly destructive.
 */
import { z } from 'zod';
import type { JsonSchema, ToolSchema } from '../messages.ts';
import type { Clock, IdGen, Sandbox } from '../ports.ts';
import type { ToolOutputChunk, TraceEvent, TraceEventBody } from '../trace.ts';
import type { FileState } from './file-state.ts';
import type { BackgroundJobs } from '../agents/background/jobs.ts';
import type { SessionGrants } from '../permissions/session-grants.ts';
import type { ToolImage } from '../leaf-types.ts';
import type { HookPayload } from '../hooks/input.ts';
import type { HookOutcome } from '../hooks/aggregate.ts';

/** Everything a tool may touch while it runs. */
export type ToolContext = {
  sandbox: Sandbox;
  /** The agent's working directory (absolute). */
  cwd: string;
  /** Fires when the user stops the run; long tools must stop promptly. */
  signal: AbortSignal;
  /** Stream partial output to the UI as it is produced. */
  onOutput: (chunk: ToolOutputChunk) => void;
  /** What this agent has read and the snapshots taken before it wrote (for `revert`). */
  files: FileState;
  clock: Clock;
  ids: IdGen;
  agentId: string;
  /**
   * Files searches must leave out (those a `Read(...)` deny or ask rule covers): `grep` and `glob`
   * skip them silently, so nothing of them reaches the model. Absent: nothing is excluded.
   */
  excludeFromSearch?: (absPath: string) => boolean;
  /** The `tool_use` id of the call being run; set by the runner, used to label snapshots. */
  toolUseId?: string;
  // agents (see src/harness/agents/README.md)
  /** The run's background jobs (`bash` with `run_in_background`, `bash_output`, `kill_shell`). */
  background?: BackgroundJobs;
  /** A tool's own trace event (`skill.loaded`, `task.created`, …), emitted after its `tool.started`. */
  report?: (event: TraceEventBody) => void;
  /**
   * Fires a hook event from inside a tool (TaskCreated, TaskCompleted, WorktreeCreate, …): its
   * `hook.run` events join this call's stream; the outcome is `null` when no hook is configured.
   */
  hook?: (payload: HookPayload) => Promise<HookOutcome | null>;
  /** Allow rules granted for the rest of the run (a loaded skill's `allowed-tools`); deny rules still win. */
  grants?: SessionGrants;
  /**
   * Puts an event into the agent's stream (set by the runner): a body is stamped as this agent's,
   * an event already stamped by a nested agent passes through as it is. Resolves once the consumer
   * has pulled it (or the run was stopped), so a nested loop goes at the consumer's pace.
   */
  emit?: (event: TraceEventBody | TraceEvent) => Promise<void>;
};

/** What a tool call produced. Failures are results with `isError`, never exceptions. */
export type { ToolImage } from '../leaf-types.ts';

/** `images`: sent after the text, as `image` blocks inside the `tool_result` (base64 source). */
export type ToolOutcome = { content: string; isError?: boolean; images?: ToolImage[] };

export type ValidationResult = { ok: true } | { ok: false; message: string };

/** What a tool's own permission check needs: paths only, so it also runs in "what-if" replays. */
/** `additionalDirectories`: where reads may go outside `workdir` without asking (settings `permissions.additionalDirectories`). */
export type ToolPermissionContext = { cwd: string; workdir: string; additionalDirectories?: readonly string[] };

/**
 * A tool's own view of a call's risk (the `tool_check` stage of the permission pipeline):
 * `passthrough` leaves it to rules and mode, `ask` needs a person (unless an allow rule names it),
 * `deny` refuses. `message` says why.
 */
export type PermissionCheckResult = { behavior: 'allow' | 'deny' | 'ask' | 'passthrough'; message?: string };

export interface Tool<Input = Record<string, unknown>> {
  readonly name: string;
  /** An instruction to the model: when to use the tool and how. */
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  /** JSON Schema sent as `input_schema`, derived from `inputSchema` (by `buildTool`: at its first read). */
  readonly inputJsonSchema: JsonSchema;
  /** Largest result kept inline; longer results are cut (head + tail) with a note. */
  readonly maxResultChars: number;
  isReadOnly(input: Input): boolean;
  isConcurrencySafe(input: Input): boolean;
  /**
   * `ctx`, when given, lets a tool answer from what the agent has seen (e.g. `write` is
   * destructive only when it overwrites a file); without it a tool answers conservatively.
   */
  isDestructive(input: Input, ctx?: ToolContext): boolean;
  /** Checks beyond the schema (e.g. the file was read first). Runs before `call`. */
  validateInput(input: Input, ctx: ToolContext): Promise<ValidationResult>;
  /** Must not throw; a thrown error is still caught by the runner and reported as a bug. */
  call(input: Input, ctx: ToolContext): Promise<ToolOutcome>;
  /** Optional: the tool's own permission check, run after validation (e.g. a write outside the workdir asks). */
  checkPermissions?(input: Input, ctx: ToolPermissionContext): Promise<PermissionCheckResult>;
}

/** A tool with its input type erased, as stored in a tool list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTool = Tool<any>;

export type ToolDefinition<Input> = {
  name: string;
  description: string;
  inputSchema: z.ZodType<Input>;
  maxResultChars?: number;
  isReadOnly?: (input: Input) => boolean;
  isConcurrencySafe?: (input: Input) => boolean;
  isDestructive?: (input: Input, ctx?: ToolContext) => boolean;
  validateInput?: (input: Input, ctx: ToolContext) => Promise<ValidationResult>;
  call: (input: Input, ctx: ToolContext) => Promise<ToolOutcome>;
  checkPermissions?: (input: Input, ctx: ToolPermissionContext) => Promise<PermissionCheckResult>;
};

export const DEFAULT_MAX_RESULT_CHARS = 30_000;

/**
 * Each schema's JSON form, computed once per schema object: tools are rebuilt by their factories
 * (per run, per agent, per turn for some lists), and `z.toJSONSchema` walking the same schema again
 * was most of the loop's fixed per-turn CPU (issue 23 §3). Weak, so a scenario's custom schemas go with it.
 */
const jsonSchemas = new WeakMap<z.ZodType, JsonSchema>();

/** The API's `input_schema` of a zod schema: a plain object schema (zod's `$schema` marker dropped), memoized. */
export function inputJsonSchemaOf(schema: z.ZodType): JsonSchema {
  let out = jsonSchemas.get(schema);
  if (!out) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-7' }) as Record<string, unknown>;
    // Frozen: one object shared by every tool built on this schema must not be edited through one of them.
    out = Object.freeze({ ...rest, type: 'object' }) as JsonSchema;
    jsonSchemas.set(schema, out);
  }
  return out;
}

export function buildTool<Input>(def: ToolDefinition<Input>): Tool<Input> {
  return {
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema,
    // Derived at its first read (a request, the context breakdown, the what-if panel), not as the tool is built:
    // a run's first event sends no request, and every tool's `z.toJSONSchema` was ~10 ms of a cold page's first Step.
    get inputJsonSchema() {
      return inputJsonSchemaOf(def.inputSchema);
    },
    maxResultChars: def.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS,
    isReadOnly: def.isReadOnly ?? (() => false),
    isConcurrencySafe: def.isConcurrencySafe ?? (() => false),
    isDestructive: def.isDestructive ?? (() => false),
    validateInput: def.validateInput ?? (async () => ({ ok: true })),
    call: def.call,
    ...(def.checkPermissions ? { checkPermissions: def.checkPermissions } : {}),
  };
}

/** The `tools` entry of a request for this tool. */
export function toolSchemaOf(tool: AnyTool): ToolSchema {
  return { name: tool.name, description: tool.description, input_schema: tool.inputJsonSchema };
}
