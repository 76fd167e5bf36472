/**
 * TeammateIdle, as Claude Code fires it: when a teammate's turn ended and it is about to go idle.
 * Exit 2 (or `decision: "block"`) keeps it working, with the reason as its next instruction — at
 * most {@link MAX_IDLE_BLOCKS} times in a row per teammate, so a hook that always blocks cannot
 * keep a teammate busy forever (like the Stop hook's budget). Fired with the lead's hooks.
 */
import { buildHookInput, runHooks } from '../../hooks/index.ts';
import type { LoopHooks } from '../../loop/hook-site.ts';
import type { Clock, Sandbox } from '../../ports.ts';
import type { TraceEventBody } from '../../trace.ts';

export const MAX_IDLE_BLOCKS = 3;

const blocksInARow = new WeakMap<object, number>();

export type IdleHookResult = { events: TraceEventBody[]; keepWorking?: string };

export async function teammateIdleHook(
  teammate: { name: string },
  teamName: string,
  env: { hooks: LoopHooks | undefined; sandbox: Sandbox; clock: Clock },
): Promise<IdleHookResult> {
  const { hooks } = env;
  if (!hooks?.config.TeammateIdle?.length) return { events: [] };
  const input = buildHookInput({ event: 'TeammateIdle', teammateName: teammate.name, teamName }, hooks.session);
  const events: TraceEventBody[] = [];
  const gen = runHooks('TeammateIdle', input, hooks.config, {
    sandbox: env.sandbox,
    clock: env.clock,
    ...(hooks.jsRunner ? { jsRunner: hooks.jsRunner } : {}),
    ...(hooks.promptModel ? { promptModel: hooks.promptModel } : {}),
    ...(hooks.reported ? { reported: hooks.reported } : {}),
    ...(hooks.httpClient ? { httpClient: hooks.httpClient } : {}),
    ...(hooks.httpEnv ? { httpEnv: hooks.httpEnv } : {}),
  });
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  const outcome = step.value;
  const used = blocksInARow.get(teammate) ?? 0;
  if (outcome.block && used < MAX_IDLE_BLOCKS) {
    blocksInARow.set(teammate, used + 1);
    return { events, keepWorking: `TeammateIdle hook feedback (keep working):\n${outcome.reason ?? 'no reason given'}` };
  }
  blocksInARow.delete(teammate);
  return { events };
}
