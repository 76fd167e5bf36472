/**
 * The plan-mode call site: a run that starts in plan mode gets `exit_plan_mode`, and its
 * permission context becomes the run's own copy, so an approved plan can switch the mode for the
 * rest of this run (never the caller's object; the next run starts from its settings again).
 */
import { exitPlanModeTool, type ModeSwitch } from '../agents/plan-mode/exit-plan-mode-tool.ts';
import type { PermissionContext } from '../permissions/types.ts';
import type { AnyTool } from '../tools/tool.ts';
import type { LoopInput } from './types.ts';

export function planModeSite(input: LoopInput, permissions: PermissionContext): { permissions: PermissionContext; tools: AnyTool[]; toolPool?: () => readonly AnyTool[] } {
  const own: PermissionContext = { ...permissions };
  const inPool = (tools: readonly AnyTool[]) => tools.some((t) => t.name === 'exit_plan_mode');
  if (own.mode !== 'plan' || inPool(input.tools)) return { permissions: own, tools: input.tools, ...(input.toolPool ? { toolPool: input.toolPool } : {}) };
  const modes: ModeSwitch = { get: () => own.mode, set: (m) => (own.mode = m) };
  const tool = exitPlanModeTool(modes) as AnyTool;
  const live = input.toolPool;
  let last: readonly AnyTool[] | undefined;
  let withTool: AnyTool[] = [];
  return {
    permissions: own,
    tools: [...input.tools, tool],
    // The live pool keeps returning the same array while nothing changed (tool-pool.ts compares them).
    ...(live
      ? {
          toolPool: () => {
            const now = live();
            if (now !== last) {
              last = now;
              withTool = [...now, tool];
            }
            return withTool;
          },
        }
      : {}),
  };
}
