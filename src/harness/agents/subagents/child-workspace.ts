/**
 * A subagent's isolated workspace (`isolation: worktree` / `overlay`, from its definition or the
 * `agent` call): created before its loop starts, offered back to the parent's tree when it ends.
 * Without isolation the child simply shares the parent's sandbox.
 */
import type { Sandbox } from '../../ports.ts';
import type { ToolContext } from '../../tools/tool.ts';
import type { TraceEventBody } from '../../trace.ts';
import { createdEvent, createIsolatedWorkspace } from '../../workspace/isolated-workspace.ts';
import { offerBack } from '../../workspace/offer-back.ts';
import type { AgentInput } from './agent-tool.ts';
import type { SubagentDefinition } from './definitions.ts';

export type ChildWorkspace = {
  sandbox: Sandbox;
  /** Offers the changes back and removes the copy; the lines for the parent's result, or '' when not isolated. */
  close(): Promise<string>;
};

export async function openChildWorkspace(
  input: AgentInput,
  def: SubagentDefinition,
  agentId: string,
  ctx: ToolContext,
  forward: (e: TraceEventBody) => Promise<void>,
): Promise<ChildWorkspace | { error: string }> {
  const base = ctx.sandbox;
  if (!input.isolation && !def.isolation) return { sandbox: base, close: () => Promise.resolve('') };
  let ws;
  try {
    ws = await createIsolatedWorkspace(base, { id: agentId, task: input.description });
  } catch (err) {
    return { error: `its isolated workspace could not be made: ${err instanceof Error ? err.message : String(err)}` };
  }
  await forward(createdEvent(ws, agentId));
  // Claude Code's WorktreeCreate: a hook that fails (exit 2 / block) makes the creation fail.
  const created = await ctx.hook?.({ event: 'WorktreeCreate', name: ws.id });
  if (created?.block) {
    await ws.dispose();
    return { error: `a WorktreeCreate hook refused its isolated workspace: ${created.reason ?? 'no reason given'}` };
  }
  return {
    sandbox: ws.sandbox,
    close: async () => {
      try {
        return (await offerBack(base, ws, agentId, forward)).report;
      } finally {
        await ws.dispose();
        await ctx.hook?.({ event: 'WorktreeRemove', worktreePath: ws.root });
      }
    },
  };
}
