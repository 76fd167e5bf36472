/**
 * One MCP tool as a harness `Tool`, so it goes through the same validation, permission pipeline
 * (rules `mcp__server__tool`, `mcp__server`, `mcp__server__*`), hooks (matchers see the full
 * name) and result handling as a built-in. Only `call` differs: it goes to the server.
 *
 * Flags are fail-closed like every tool's: read-only (and so safe to run alongside others) only
 * when the server says `readOnlyHint: true`; destructive unless it says `destructiveHint: false`
 * (the MCP default is destructive).
 */
import { z } from 'zod';
import type { JsonSchema } from '../messages.ts';
import type { McpConnection } from '../ports.ts';
import type { AnyTool, ToolOutcome } from '../tools/tool.ts';
import { DEFAULT_MAX_RESULT_CHARS } from '../tools/tool.ts';
import { mcpFailureOutcome, mcpResultToOutcome } from './result.ts';
import type { NamedMcpTool } from './tool-list.ts';
import { DEFAULT_MCP_CALL_TIMEOUT_MS, type McpServerSpec } from './types.ts';

/** Claude Code cuts MCP tool descriptions at this length, so a verbose server cannot flood the prompt. */
export const MCP_DESCRIPTION_MAX = 2048;

const anyObject = z.record(z.string(), z.unknown());

export function mcpTool(spec: McpServerSpec, named: NamedMcpTool, connection: McpConnection, now: () => number): AnyTool {
  const { info, fullName } = named;
  const readOnly = info.annotations?.readOnlyHint === true;
  const destructive = info.annotations?.destructiveHint !== false;
  const description = (info.description ?? '').length > MCP_DESCRIPTION_MAX ? `${info.description!.slice(0, MCP_DESCRIPTION_MAX)}… [description truncated]` : (info.description ?? '');
  return {
    name: fullName,
    description,
    inputSchema: anyObject,
    inputJsonSchema: { ...info.inputSchema, type: 'object' } as JsonSchema,
    maxResultChars: DEFAULT_MAX_RESULT_CHARS,
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isDestructive: () => destructive,
    validateInput: async () => ({ ok: true }),
    async call(input: Record<string, unknown>, ctx): Promise<ToolOutcome> {
      const started = now();
      const reply = await connection.callTool(info.name, input, { timeoutMs: spec.timeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS, signal: ctx.signal });
      const ms = now() - started;
      const read = reply.ok ? mcpResultToOutcome(reply.result, spec.name) : mcpFailureOutcome(spec.name, fullName, reply.message);
      const outcome: ToolOutcome = { content: read.content, ...(read.isError ? { isError: true } : {}), ...(read.images ? { images: read.images } : {}) };
      ctx.report?.({
        type: 'mcp.call',
        server: spec.name,
        tool: info.name,
        name: fullName,
        ...(ctx.toolUseId ? { toolUseId: ctx.toolUseId } : {}),
        ok: reply.ok,
        isError: outcome.isError === true,
        ms,
        exchange: reply.exchange ?? { request: null },
      });
      if (!reply.ok) ctx.report?.({ type: 'mcp.error', server: spec.name, phase: 'call', tool: fullName, message: reply.message });
      // An `isError` result is the tool's own answer; only a malformed reply is the server's fault.
      else if ('malformed' in read) ctx.report?.({ type: 'mcp.error', server: spec.name, phase: 'call', tool: fullName, message: outcome.content });
      return outcome;
    },
  };
}
