/**
 * PermissionDenied: Claude Code fires it when a call is denied without a person deciding (its auto
 * mode's classifier). Here: a denial by the mode stage (`plan`, `dontAsk`) or by a prompt stage
 * with nobody to ask (headless). A person's "deny", a rule and a hook are not this event. A hook
 * answering `hookSpecificOutput.retry: true` lets the model know it may try again.
 */
import type { PipelineResult } from '../permissions/pipeline.ts';
import type { ToolUseBlock } from '../messages.ts';
import type { TraceEventBody } from '../trace.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';

export const RETRY_NOTE = 'A PermissionDenied hook says you may retry this call (for example after the mode changes or with a narrower command).';

export function deniedWithoutPerson(r: PipelineResult, hasPerson: boolean): boolean {
  return r.decision === 'deny' && (r.stage === 'mode' || (r.stage === 'prompt' && !hasPerson));
}

/** The denial message the model gets, with the retry note when a hook asked for it. */
export async function permissionDeniedHook(
  block: ToolUseBlock,
  message: string,
  hooks: HookSiteEnv,
  side: TraceEventBody[],
): Promise<string> {
  const o = await drainInto(
    fireHook({ event: 'PermissionDenied', toolName: block.name, toolInput: block.input, toolUseId: block.id, reason: message }, hooks),
    (e) => side.push(e),
  );
  return o?.retry ? `${message}\n${RETRY_NOTE}` : message;
}
