/**
 * A custom tool as the user defines it (tool editor, scenario file, share link): plain JSON,
 * checked with zod. Names follow the Messages API's rule for tool names (`^[a-zA-Z0-9_-]{1,64}$`),
 * may not take a built-in's name, and may not start with `mcp__` (that prefix names MCP tools).
 * Flags default fail-closed, like `buildTool`: not read-only, not concurrency-safe, not destructive
 * unless said (destructive is advice to the person; read-only is what lets a call skip the prompt).
 */
import { z } from 'zod';
import { checkInputSchema } from './json-schema-check.ts';

export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Names the harness's own tools use; a custom tool may not shadow them. */
export const RESERVED_TOOL_NAMES = [
  'bash', 'read', 'write', 'edit', 'glob', 'grep', 'revert', 'read_tool_result', 'todo_write', 'agent', 'skill',
  'task_create', 'task_list', 'task_get', 'task_update', 'bash_output', 'kill_shell',
] as const;

/** Longest a JS or shell tool may run; its own `timeoutMs` may only be shorter. */
export const MAX_CUSTOM_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_CUSTOM_TOOL_TIMEOUT_MS = 10_000;

const implementationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('js'), source: z.string().min(1, 'the JS body is empty: write what the tool does and `return` its result').max(100_000) }).strict(),
  z.object({ kind: z.literal('shell'), command: z.string().min(1, 'the command is empty').max(10_000) }).strict(),
]);

export const customToolSchema = z
  .object({
    name: z
      .string()
      .regex(TOOL_NAME_PATTERN, 'tool names are 1–64 letters, digits, "_" or "-" (the Messages API rule)')
      .refine((n) => !n.startsWith('mcp__'), 'names starting with "mcp__" are for MCP servers\' tools')
      .refine((n) => !(RESERVED_TOOL_NAMES as readonly string[]).includes(n), 'a built-in tool already has this name'),
    description: z.string().min(1, 'describe when the model should use the tool: it is all the model reads').max(10_000),
    inputSchema: z.record(z.string(), z.unknown()).superRefine((schema, ctx) => {
      for (const issue of checkInputSchema(schema, '')) {
        const path = issue.path.split('.').filter((p) => p !== '');
        ctx.addIssue({ code: 'custom', path, message: issue.message });
      }
    }),
    readOnly: z.boolean().default(false),
    concurrencySafe: z.boolean().default(false),
    destructive: z.boolean().default(false),
    timeoutMs: z.number().int().min(100).max(MAX_CUSTOM_TOOL_TIMEOUT_MS).default(DEFAULT_CUSTOM_TOOL_TIMEOUT_MS),
    implementation: implementationSchema,
  })
  .strict();

export type CustomToolDefinition = z.output<typeof customToolSchema>;
export type CustomToolInput = z.input<typeof customToolSchema>;

/** A list of custom tools: each valid, names unique. */
export const customToolsSchema = z
  .array(customToolSchema)
  .max(50)
  .superRefine((tools, ctx) => {
    const seen = new Set<string>();
    tools.forEach((t, i) => {
      if (seen.has(t.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `two tools are called "${t.name}"` });
      seen.add(t.name);
    });
  });

export type CustomToolParse = { ok: true; tool: CustomToolDefinition } | { ok: false; errors: string[] };

/** Validates one definition; each error starts with the field path (`inputSchema.properties.x.type: …`). */
export function parseCustomTool(json: unknown): CustomToolParse {
  const r = customToolSchema.safeParse(json);
  if (r.success) return { ok: true, tool: r.data };
  return { ok: false, errors: r.error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(the tool)'}: ${i.message}`) };
}
