/**
 * Turns a `CustomToolDefinition` into a `Tool` the loop runs like a built-in: the same validation
 * (its JSON Schema, enforced through `z.fromJSONSchema`; a bad input is a tool error naming the
 * field), the same permission pipeline and hooks (nothing here decides permissions), the same
 * "tools never throw" rule.
 *
 * - `js`: the body runs through the `UserToolRunner` port with the input and `projectFiles`.
 * - `shell`: `Sandbox.exec(command)` with the input as JSON on stdin; stdout is the result; a
 *   non-zero exit is a tool error carrying the exit code and stderr.
 */
import { z } from 'zod';
import type { JsonSchema } from '../../messages.ts';
import type { UserToolRunner } from '../../ports.ts';
import { DEFAULT_MAX_RESULT_CHARS, type AnyTool, type ToolOutcome } from '../tool.ts';
import type { CustomToolDefinition } from './definition.ts';
import { projectFiles } from './files-api.ts';

export type CustomToolEnv = {
  /** Runs `js` implementations; without it a JS tool answers with an error saying so. */
  runner?: UserToolRunner;
};

/** The zod schema that checks a call's input against the tool's JSON Schema. */
function inputValidator(schema: Record<string, unknown>): z.ZodType<Record<string, unknown>> {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]) as z.ZodType<Record<string, unknown>>;
  } catch (e) {
    // The definition passed `checkInputSchema`; anything zod still refuses fails every call clearly.
    const why = e instanceof Error ? e.message : String(e);
    return z.unknown().superRefine((_v, ctx) => ctx.addIssue({ code: 'custom', message: `the tool's input schema cannot be enforced (${why}); fix it in the tool editor` })) as never;
  }
}

const withLogs = (text: string, logs: string) => (logs.trim() ? `${text}\n[console]\n${logs.trimEnd()}` : text);

export function customTool(def: CustomToolDefinition, env: CustomToolEnv = {}): AnyTool {
  const { $schema: _ignored, ...schema } = def.inputSchema as Record<string, unknown>;
  const jsonSchema = { ...schema, type: 'object' } as JsonSchema;
  return {
    name: def.name,
    description: def.description,
    inputSchema: inputValidator(jsonSchema as Record<string, unknown>),
    inputJsonSchema: jsonSchema,
    maxResultChars: DEFAULT_MAX_RESULT_CHARS,
    isReadOnly: () => def.readOnly,
    isConcurrencySafe: () => def.concurrencySafe,
    isDestructive: () => def.destructive,
    validateInput: async () => ({ ok: true }),
    async call(input, ctx): Promise<ToolOutcome> {
      if (def.implementation.kind === 'shell') {
        const r = await ctx.sandbox.exec(def.implementation.command, {
          cwd: ctx.cwd,
          stdin: JSON.stringify(input ?? {}),
          timeoutMs: def.timeoutMs,
          signal: ctx.signal,
          onOutput: (chunk) => ctx.onOutput(chunk),
        });
        if (r.timedOut) return { content: `The tool "${def.name}" did not finish within ${def.timeoutMs} ms and was stopped.`, isError: true };
        if (r.aborted) return { content: `The tool "${def.name}" was stopped because the run was stopped.`, isError: true };
        if (r.exitCode !== 0) return { content: `Exit code ${r.exitCode}\n${r.stderr || r.stdout}`.trimEnd(), isError: true };
        return { content: r.stdout };
      }
      if (!env.runner) return { content: `The tool "${def.name}" is JavaScript, and this run has no JS runtime for tools.`, isError: true };
      // The tool is stopped by the run's signal, or by its own file API when it floods it.
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      if (ctx.signal.aborted) stop.abort();
      const files = projectFiles(ctx.sandbox, ctx.cwd, { tool: def.name, readOnly: def.readOnly, onLimit: () => stop.abort() });
      let r: Awaited<ReturnType<UserToolRunner['run']>>;
      try {
        r = await env.runner.run(def.implementation.source, input, files, { timeoutMs: def.timeoutMs, signal: stop.signal });
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
        // Requests the tool queued without awaiting die with it (they would keep the sandbox busy).
        await files.close();
      }
      if (files.tripped) return { content: `The tool "${def.name}" was stopped: it ${files.tripped}.`, isError: true };
      // What the tool returned is its result; console output is shown only when it failed.
      if (r.ok) return { content: r.output };
      if (r.timedOut) return { content: `The tool "${def.name}" did not finish within ${def.timeoutMs} ms and was stopped.`, isError: true };
      if (r.aborted) return { content: `The tool "${def.name}" was stopped because the run was stopped.`, isError: true };
      return { content: withLogs(`The tool "${def.name}" failed: ${r.error}`, r.logs), isError: true };
    },
  };
}
