/**
 * `runHooks`: run every hook configured for one event whose matcher selects this input — all of
 * them at once — and fold their answers into one {@link HookOutcome} for the loop to act on.
 *
 * It is a generator so each hook shows up in the trace (`hook.run`) the moment it finishes; the
 * outcome is its return value. It never throws: a hook that fails, times out or cannot start is
 * a non-blocking error in `userMessages`, so a broken hook never stops the agent unless it asks
 * to (exit 2, `decision: "block"`, `continue: false`).
 */
import type { Clock, HttpHookClient, JsHookRunner, Sandbox } from '../ports.ts';
import type { HookRef, TraceEventBody } from '../trace.ts';
import type { AsyncHookInbox } from './async-hooks.ts';
import { runHttpHook, type HttpHookExtra } from './http-hook.ts';
import { AsyncQueue } from '../util/async-queue.ts';
import { aggregateVerdicts, type HookOutcome } from './aggregate.ts';
import { DEFAULT_HOOK_TIMEOUT_S, type HookDefinition, type HookEventName, type HooksConfig } from './config.ts';
import type { HookInput } from './input.ts';
import { interpretHookResult, type HookProcessResult, type HookVerdict } from './interpret.ts';
import { hookConditionHolds } from './condition.ts';
import { runPromptHook, type PromptHookModel } from './prompt-hook.ts';
import { compileMatcher, matcherSubject, matches } from './matcher.ts';

export type { HookOutcome } from './aggregate.ts';

export type HookRunEnv = {
  /** Where command hooks run (with the JSON input on stdin and `CLAUDE_PROJECT_DIR` set). */
  sandbox: Sandbox;
  /** Asks `type: "prompt"` hooks' model (the run's ModelClient port); without one they fail, non-blocking. */
  promptModel?: PromptHookModel;
  /** Runs `type: "js"` hooks; without one they fail (non-blocking) with a message saying so. */
  jsRunner?: JsHookRunner;
  /** POSTs `type: "http"` hooks' input; without one they fail (non-blocking) with a message saying so. */
  httpClient?: HttpHookClient;
  /** Where http hooks' `allowedEnvVars` are read from (settings' `env`; the runner adds its process's). */
  httpEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * Where `async` / `asyncRewake` command hooks go while they run (`async-hooks.ts`). Without one
   * (a site that has no safe point to deliver them) they run in line like any hook.
   */
  asyncHooks?: AsyncHookInbox;
  clock: Clock;
  /** Stops running hooks (they end as non-blocking errors). */
  signal?: AbortSignal;
  /** The hooks' working directory; defaults to the sandbox's workdir. */
  cwd?: string;
  /** Seconds, when a hook sets none. Default 60 (Claude Code's). */
  defaultTimeoutS?: number;
  /**
   * Config problems already reported (e.g. an invalid matcher), so each is reported once. Pass one
   * set per session; by default one set is kept per `config` object.
   */
  reported?: Set<string>;
};

type Planned = { hook: HookDefinition; matcher: string };

const reportedByConfig = new WeakMap<HooksConfig, Set<string>>();

export async function* runHooks(
  event: HookEventName,
  input: HookInput,
  config: HooksConfig,
  env: HookRunEnv,
): AsyncGenerator<TraceEventBody, HookOutcome> {
  const reported = env.reported ?? getOrCreate(reportedByConfig, config);
  const subject = matcherSubject(event, input);
  const configErrors: string[] = [];
  let planned: Planned[] = [];
  const seen = new Set<string>();

  for (const group of config[event] ?? []) {
    const matcher = group.matcher ?? '';
    const compiled = compileMatcher(matcher);
    if (!compiled.ok && subject !== null) {
      const key = `${event}\u0000${matcher}`;
      if (!reported.has(key)) {
        reported.add(key);
        configErrors.push(`${event} hooks: ${compiled.error}`);
        yield { type: 'hook.config_error', event, matcher, message: compiled.error };
      }
      continue;
    }
    if (!matches(compiled, subject)) continue;
    for (const hook of group.hooks) {
      if (!hookConditionHolds(hook.if, input)) continue;
      // Claude Code runs identical hooks once even when several groups list them.
      const key = `${hook.type}\u0000${hookText(hook)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      planned.push({ hook, matcher });
    }
  }

  // Background hooks start now and report at a safe point; the event does not wait for them.
  const inbox = env.asyncHooks;
  const foreground = inbox ? planned.filter((p) => !isBackground(p.hook)) : planned;
  if (inbox) {
    for (const p of planned) {
      if (!isBackground(p.hook)) continue;
      const id = inbox.nextId();
      const rewake = p.hook.type === 'command' && p.hook.asyncRewake === true;
      yield { type: 'hook.async_started', id, event, matcher: p.matcher, hook: refOf(p.hook), rewake };
      inbox.start(id, rewake, runOne(event, input, p, env).then((r) => r.trace as Extract<TraceEventBody, { type: 'hook.run' }>));
    }
  }
  planned = foreground;

  const verdicts: HookVerdict[] = new Array(planned.length);
  if (planned.length > 0) {
    const queue = new AsyncQueue<TraceEventBody>();
    let pending = planned.length;
    planned.forEach((p, i) => {
      void runOne(event, input, p, env).then(({ verdict, trace }) => {
        verdicts[i] = verdict;
        queue.push(trace);
        if (--pending === 0) queue.close();
      });
    });
    for await (const e of queue) yield e;
  }

  const outcome = aggregateVerdicts(verdicts);
  outcome.userMessages.unshift(...configErrors);
  return outcome;
}

async function runOne(
  event: HookEventName,
  input: HookInput,
  { hook, matcher }: Planned,
  env: HookRunEnv,
): Promise<{ verdict: HookVerdict; trace: TraceEventBody }> {
  const timeoutS = hook.timeout ?? env.defaultTimeoutS ?? DEFAULT_HOOK_TIMEOUT_S;
  const timeoutMs = Math.round(timeoutS * 1000);
  const desc = describeHook(event, hook);
  const started = env.clock.now();
  let result: HookProcessResult;
  let extra: HttpHookExtra = {};
  try {
    ({ result, extra } = await execute(hook, input, timeoutMs, env));
  } catch (e) {
    // Ports promise not to throw; keep our own promise if one does.
    result = { exitCode: 1, stdout: '', stderr: `the hook could not run: ${e instanceof Error ? e.message : String(e)}`, timedOut: false };
  }
  const verdict = interpretHookResult(event, result, desc, timeoutS);
  const reason = verdict.reason ?? verdict.stop?.reason ?? verdict.userMessage;
  const trace: TraceEventBody = {
    type: 'hook.run',
    event,
    matcher,
    hook: refOf(hook),
    input,
    exitCode: result.exitCode,
    stdout: result.stdout,
    stderr: result.stderr,
    timedOut: result.timedOut,
    decision: verdict.label,
    ...(reason ? { reason } : {}),
    ms: env.clock.now() - started,
    ...(extra.status !== undefined ? { status: extra.status } : {}),
    ...(extra.refused ? { refused: true } : {}),
  };
  return { verdict, trace };
}

async function execute(hook: HookDefinition, input: HookInput, timeoutMs: number, env: HookRunEnv): Promise<{ result: HookProcessResult; extra: HttpHookExtra }> {
  if (hook.type === 'http') {
    if (!env.httpClient) return { result: { exitCode: 1, stdout: '', stderr: 'http hooks need an HTTP hook client, and this run has none.', timedOut: false }, extra: {} };
    return runHttpHook(hook, input, env.httpClient, { timeoutMs, env: env.httpEnv ?? {}, ...(env.signal ? { signal: env.signal } : {}) });
  }
  return { result: await executeProcess(hook, input, timeoutMs, env), extra: {} };
}

async function executeProcess(hook: Exclude<HookDefinition, { type: 'http' }>, input: HookInput, timeoutMs: number, env: HookRunEnv): Promise<HookProcessResult> {
  if (hook.type === 'command') {
    const r = await env.sandbox.exec(hook.command, {
      stdin: JSON.stringify(input),
      cwd: env.cwd ?? env.sandbox.workdir,
      timeoutMs,
      ...(env.signal ? { signal: env.signal } : {}),
      env: { CLAUDE_PROJECT_DIR: env.sandbox.workdir },
    });
    return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
  }
  if (hook.type === 'prompt') {
    if (!env.promptModel) return { exitCode: 1, stdout: '', stderr: 'prompt hooks need a model, and this run has none for them.', timedOut: false };
    return runPromptHook(hook, input, env.promptModel, { timeoutMs, ...(env.signal ? { signal: env.signal } : {}) });
  }
  if (!env.jsRunner) {
    return {
      exitCode: 1,
      stdout: '',
      stderr: 'JS hooks need a JS hook runner, and none is configured here (pass `jsRunner`).',
      timedOut: false,
    };
  }
  return env.jsRunner.run(hook.code, input, { timeoutMs, ...(env.signal ? { signal: env.signal } : {}) });
}

/** `PreToolUse hook "./check.sh"` / `Stop JS hook "keep going"` — used in user-facing messages. */
export function describeHook(event: HookEventName, hook: HookDefinition): string {
  const what = hook.type === 'js' ? (hook.name ?? 'js hook') : hookText(hook);
  const short = what.length > 60 ? `${what.slice(0, 57)}…` : what;
  const kind = hook.type === 'js' ? 'JS hook' : hook.type === 'prompt' ? 'prompt hook' : hook.type === 'http' ? 'http hook' : 'hook';
  return `${event} ${kind} ${JSON.stringify(short.replace(/\s+/g, ' '))}`;
}

/** `async: true` / `asyncRewake: true` command hooks run in the background (`async-hooks.ts`). */
function isBackground(hook: HookDefinition): boolean {
  return hook.type === 'command' && (hook.async === true || hook.asyncRewake === true);
}

/** How a trace event names a hook. */
function refOf(hook: HookDefinition): HookRef {
  if (hook.type === 'command') return { type: 'command', command: hook.command };
  if (hook.type === 'prompt') return { type: 'prompt', prompt: hook.prompt };
  if (hook.type === 'http') return { type: 'http', url: hook.url };
  return { type: 'js', name: hook.name ?? 'js hook' };
}

function getOrCreate<K extends object, V>(map: WeakMap<K, Set<V>>, key: K): Set<V> {
  let v = map.get(key);
  if (!v) map.set(key, (v = new Set()));
  return v;
}

/** What a hook runs: its command, prompt or code. */
function hookText(hook: HookDefinition): string {
  return hook.type === 'command' ? hook.command : hook.type === 'prompt' ? hook.prompt : hook.type === 'http' ? hook.url : hook.code;
}
