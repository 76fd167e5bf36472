/**
 * Checks a server's raw `tools/list` entries: each needs a string `name` and an object
 * `inputSchema`; names become `mcp__<server>__<tool>`. Entries that cannot be used are skipped,
 * each with a reason, so one bad tool does not take the server's others with it.
 */
import { z } from 'zod';
import { mcpToolName, mcpToolNameProblem } from './names.ts';
import type { McpToolInfo } from './types.ts';

const toolEntry = z.object({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z
    .object({ readOnlyHint: z.boolean().optional(), destructiveHint: z.boolean().optional(), title: z.string().optional() })
    .partial()
    .optional(),
});

export type NamedMcpTool = { fullName: string; info: McpToolInfo };
export type ToolListReading = { tools: NamedMcpTool[]; skipped: { tool: string; reason: string }[] };

export function readToolList(server: string, raw: readonly unknown[]): ToolListReading {
  const tools: NamedMcpTool[] = [];
  const skipped: { tool: string; reason: string }[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, i) => {
    const parsed = toolEntry.safeParse(entry);
    const label = typeof (entry as { name?: unknown } | null)?.name === 'string' ? String((entry as { name: string }).name) : `#${i + 1}`;
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      skipped.push({ tool: label, reason: `not a tool definition (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'})` });
      return;
    }
    const fullName = mcpToolName(server, parsed.data.name);
    const problem = mcpToolNameProblem(fullName);
    if (problem) return void skipped.push({ tool: label, reason: problem });
    if (seen.has(fullName)) return void skipped.push({ tool: label, reason: `another tool of this server is also named ${fullName} once sanitised` });
    seen.add(fullName);
    const a = parsed.data.annotations;
    tools.push({
      fullName,
      info: {
        name: parsed.data.name,
        inputSchema: parsed.data.inputSchema,
        ...(parsed.data.description !== undefined ? { description: parsed.data.description } : {}),
        ...(a ? { annotations: Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) } : {}),
      },
    });
  });
  return { tools, skipped };
}
