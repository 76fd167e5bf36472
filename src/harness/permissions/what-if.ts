/**
 * What-if: judge a recorded call (name + input) again under other rules or another mode. Pure —
 * no hook runs and no one is asked; a call that would need a person is reported as "would ask".
 * The tool's schema and its own permission check run when the tool is given; `validateInput`
 * (which reads the sandbox) does not.
 */
import type { AnyTool } from '../tools/tool.ts';
import { judge } from './judge.ts';
import type { PermissionContext, StageName, StageResult } from './types.ts';

export type WhatIfResult = {
  stages: StageResult[];
  /** The stage that decided. */
  decidingStage: StageName;
  outcome: 'allow' | 'deny' | 'ask';
  reason: string;
};

export async function whatIf(
  call: { name: string; input: unknown },
  ctx: PermissionContext,
  tools: readonly AnyTool[] = [],
): Promise<WhatIfResult> {
  const stages: StageResult[] = [];
  const tool = tools.find((t) => t.name === call.name);
  let input = call.input;
  let toolReadOnly = false;
  let toolAsk: { reason: string; decidedBy: { kind: 'tool'; text: string } } | undefined;
  const end = (s: StageResult & { decision: 'allow' | 'deny' | 'ask' }): WhatIfResult => ({ stages, decidingStage: s.stage, outcome: s.decision, reason: s.reason });

  if (tool) {
    const parsed = tool.inputSchema.safeParse(call.input);
    if (!parsed.success) {
      const s = { stage: 'validate' as const, decision: 'deny' as const, reason: `the input does not fit ${tool.name}'s schema`, decidedBy: { kind: 'tool' as const, text: 'inputSchema' } };
      stages.push(s);
      return end(s);
    }
    input = parsed.data;
    stages.push({ stage: 'validate', decision: 'passthrough', reason: 'the input fits the schema (validateInput is not re-run)' });
    try {
      toolReadOnly = tool.isReadOnly(input);
    } catch {
      toolReadOnly = false;
    }
    if (tool.checkPermissions) {
      const r = await tool.checkPermissions(input, { cwd: ctx.cwd ?? ctx.workdir, workdir: ctx.workdir, ...(ctx.additionalDirectories ? { additionalDirectories: ctx.additionalDirectories } : {}) });
      const by = { kind: 'tool' as const, text: `${tool.name}.checkPermissions` };
      const s: StageResult = { stage: 'tool_check', decision: r.behavior, reason: r.message ?? r.behavior, decidedBy: by };
      stages.push(s);
      if (r.behavior === 'deny') return end({ ...s, decision: 'deny' });
      if (r.behavior === 'ask') toolAsk = { reason: s.reason, decidedBy: by };
    } else {
      stages.push({ stage: 'tool_check', decision: 'passthrough', reason: `${tool.name} has no check of its own` });
    }
  } else {
    // Without the tool, judge by name: bash commands are analysed; other tools count as writing.
    stages.push({ stage: 'validate', decision: 'passthrough', reason: 'tool not given: schema not checked' });
  }
  stages.push({ stage: 'hooks', decision: 'passthrough', reason: 'hooks are not run in what-if' });
  const j = judge({ name: call.name, input, ctx, toolReadOnly, ...(toolAsk ? { toolAsk } : {}) });
  stages.push(...j.stages);
  if (j.final.decision !== 'ask') return end(j.final);
  const s = { stage: 'prompt' as const, decision: 'ask' as const, reason: `would ask: ${j.final.reason}`, decidedBy: { kind: 'default' as const, text: 'would ask' } };
  stages.push(s);
  return end(s);
}
