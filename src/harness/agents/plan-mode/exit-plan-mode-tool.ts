/**
 * `exit_plan_mode` (Claude Code's ExitPlanMode): in plan mode the model presents its plan through
 * this tool; the call always needs approval — a person (the permission dialog shows the plan), a
 * PermissionRequest hook, or headless policy (no person: denied, so the run stays in plan mode).
 * Approved, the run leaves plan mode for `default` (Claude Code's "yes, and manually approve
 * edits") and the next calls are judged in that mode; rejected, the model keeps planning.
 */
import { z } from 'zod';
import type { PermissionMode } from '../../permissions/types.ts';
import { fail } from '../../tools/shared.ts';
import { buildTool } from '../../tools/tool.ts';

export const EXIT_PLAN_MODE_TOOL_NAME = 'exit_plan_mode';

/** The run's permission mode, as the tool reads and switches it (the loop's own context). */
export type ModeSwitch = { get(): PermissionMode; set(mode: PermissionMode): void };

/** The mode an approved plan switches to. */
export const MODE_AFTER_PLAN: PermissionMode = 'default';

const schema = z.object({
  plan: z.string().min(1).describe('The plan to present to the user for approval, in Markdown: what you will change and how you will check it.'),
});

export function exitPlanModeTool(modes: ModeSwitch) {
  return buildTool<z.infer<typeof schema>>({
    name: EXIT_PLAN_MODE_TOOL_NAME,
    description:
      'Use it in plan mode when you have finished planning and are ready to make changes: it presents your plan to the user, ' +
      'who approves it (you leave plan mode and can edit) or rejects it (you stay in plan mode; revise the plan). ' +
      'Only for tasks that change code, after you have read what you need.',
    inputSchema: schema,
    // It changes no file; the approval comes from the tool's own check (always ask).
    isReadOnly: () => true,
    async checkPermissions() {
      if (modes.get() !== 'plan') return { behavior: 'deny', message: `not in plan mode (the mode is ${modes.get()}): there is no plan to approve` };
      return { behavior: 'ask', message: 'the agent presents its plan and asks to leave plan mode' };
    },
    async call(input, ctx) {
      const from = modes.get();
      if (from !== 'plan') return fail(`Not in plan mode (the mode is ${from}).`);
      modes.set(MODE_AFTER_PLAN);
      ctx.report?.({ type: 'permission.mode_changed', from, to: MODE_AFTER_PLAN, why: 'the plan was approved (exit_plan_mode)' });
      return {
        content: `User has approved your plan. You are out of plan mode (mode: ${MODE_AFTER_PLAN}) and can start making the changes; edits ask as ${MODE_AFTER_PLAN} mode does.\n\nApproved plan:\n${input.plan}`,
      };
    },
  });
}
