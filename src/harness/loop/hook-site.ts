/**
 * The loop's one way to fire a hook event: builds the stdin JSON, runs the matching hooks (their
 * `hook.run` events pass through the caller's generator) and returns their combined outcome, or
 * `null` when no hooks are configured — so a run without hooks emits nothing for them.
 */
import type { HookOutcome, HookPayload, HookSession, HooksConfig } from '../hooks/index.ts';
import { buildHookInput, runHooks, type AsyncHookInbox } from '../hooks/index.ts';
import type { Clock, HttpHookClient, JsHookRunner, Sandbox } from '../ports.ts';
import type { PromptHookModel } from '../hooks/prompt-hook.ts';
import type { TraceEventBody } from '../trace.ts';

/** Hooks as the loop receives them: already trusted (an untrusted config must not get here). */
export type LoopHooks = {
  config: HooksConfig;
  session: HookSession;
  jsRunner?: JsHookRunner;
  /** The model `type: "prompt"` hooks ask (the run's ModelClient port and model id). */
  promptModel?: PromptHookModel;
  /** Config problems already reported this session (each is reported once). */
  reported?: Set<string>;
  /** POSTs `type: "http"` hooks (the runner's Node client; the page's allow-listed one). */
  httpClient?: HttpHookClient;
  /** Variables http hooks' `allowedEnvVars` may name (settings' `env`, plus the runner's process env). */
  httpEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * Background (`async` / `asyncRewake`) hooks between start and delivery. Pass one per session to
   * deliver a hook that ends after a run at the next prompt's first call; by default one per run.
   */
  asyncHooks?: AsyncHookInbox;
};

/** `asyncHooks`: the run's inbox of background hooks (the loop delivers it at each safe point). */
export type HookSiteEnv = { hooks?: LoopHooks; sandbox: Sandbox; clock: Clock; signal: AbortSignal; cwd: string; asyncHooks?: AsyncHookInbox };

export async function* fireHook(payload: HookPayload, env: HookSiteEnv): AsyncGenerator<TraceEventBody, HookOutcome | null> {
  const { hooks } = env;
  if (!hooks || !(hooks.config[payload.event]?.length ?? 0)) return null;
  const input = buildHookInput(payload, hooks.session);
  return yield* runHooks(payload.event, input, hooks.config, {
    sandbox: env.sandbox,
    clock: env.clock,
    signal: env.signal,
    cwd: env.cwd,
    ...(hooks.jsRunner ? { jsRunner: hooks.jsRunner } : {}),
    ...(hooks.promptModel ? { promptModel: hooks.promptModel } : {}),
    ...(hooks.reported ? { reported: hooks.reported } : {}),
    ...(hooks.httpClient ? { httpClient: hooks.httpClient } : {}),
    ...(hooks.httpEnv ? { httpEnv: hooks.httpEnv } : {}),
    ...(env.asyncHooks ? { asyncHooks: env.asyncHooks } : {}),
  });
}

/** Drains a sub-generator, handing each event to `emit`, and returns its result. */
export async function drainInto<T>(gen: AsyncGenerator<TraceEventBody, T>, emit: (e: TraceEventBody) => void): Promise<T> {
  let step = await gen.next();
  while (!step.done) {
    emit(step.value);
    step = await gen.next();
  }
  return step.value;
}
