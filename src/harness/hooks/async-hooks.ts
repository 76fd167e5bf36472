/**
 * Background hooks, as Claude Code's `async: true` and `asyncRewake: true` command hooks:
 *
 * - the hook starts (`hook.async_started`) and the event goes on without it: it cannot block,
 *   deny or stop anything, since what it would judge has already happened;
 * - when it ends, its `hook.run` (with `background`) and what it says for the model — a JSON
 *   answer's `systemMessage` and `additionalContext` — are delivered at the next safe point, before
 *   the next model call (also the next prompt's, when the caller keeps one inbox per session);
 * - an `asyncRewake` hook that exits 2 wakes the agent: when the model stops while such a hook is
 *   still running, the loop waits for it, and its stderr (or stdout) goes to the model as the
 *   reason to continue (`async_hook_rewake`). Any other end of a rewake hook is delivered like an
 *   `async` one.
 *
 * The inbox holds them between the moment they start and the safe point that delivers them.
 */
import type { TraceEventBody } from '../trace.ts';

type HookRunBody = Extract<TraceEventBody, { type: 'hook.run' }>;

export type FinishedAsyncHook = {
  /** The finished hook's `hook.run`, with `background` set. */
  trace: HookRunBody;
  /** What goes to the model (empty: nothing to deliver but the event). */
  text: string;
  /** An `asyncRewake` hook exited 2: it wakes the agent. */
  wakes: boolean;
};

export class AsyncHookInbox {
  private n = 0;
  private readonly running = new Map<string, { rewake: boolean; done: Promise<void> }>();
  private finished: FinishedAsyncHook[] = [];

  /** Ids are per inbox (`async-1`, …), so a replayed session numbers them the same way. */
  nextId(): string {
    return `async-${++this.n}`;
  }

  /** Registers a started hook; `work` resolves to its `hook.run` (it must not reject). */
  start(id: string, rewake: boolean, work: Promise<HookRunBody>): void {
    const done = work.then((trace) => {
      this.running.delete(id);
      this.finished.push(finishedOf({ ...trace, background: { id, rewake: rewake && trace.exitCode === 2 && !trace.timedOut } }));
    });
    this.running.set(id, { rewake, done });
  }

  /** Finished hooks not yet delivered, in the order they ended; taking them empties the list. */
  take(): FinishedAsyncHook[] {
    const out = this.finished;
    this.finished = [];
    return out;
  }

  /** A finished rewake hook waits to wake the agent. */
  hasWake(): boolean {
    return this.finished.some((f) => f.wakes);
  }

  /** How many `asyncRewake` hooks are still running. */
  rewakeRunning(): number {
    let k = 0;
    for (const r of this.running.values()) if (r.rewake) k++;
    return k;
  }

  /** Resolves once every running `asyncRewake` hook has ended (or at `signal`). */
  async waitForRewake(signal: AbortSignal): Promise<void> {
    const waits = [...this.running.values()].filter((r) => r.rewake).map((r) => r.done);
    if (waits.length === 0 || signal.aborted) return;
    await Promise.race([Promise.all(waits), new Promise<void>((res) => signal.addEventListener('abort', () => res(), { once: true }))]);
  }

  /** Resolves once no hook is running (for a caller that wants every result, e.g. before the next prompt). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }
}

function finishedOf(trace: HookRunBody): FinishedAsyncHook {
  const wakes = trace.background?.rewake === true;
  const label = `${trace.event} hook ${JSON.stringify(hookName(trace))}`;
  if (wakes) {
    const said = trace.stderr.trim() || trace.stdout.trim() || 'it exited 2 without a message';
    return { trace, wakes, text: `A background ${label} finished with exit 2 and asks you to act: ${said}` };
  }
  const parts = exitZeroOutput(trace);
  return { trace, wakes, text: parts.length > 0 ? `A background ${label} finished:\n${parts.join('\n')}` : '' };
}

/** `systemMessage` and `additionalContext` of an exit-0 JSON answer: what Claude Code delivers. */
function exitZeroOutput(trace: HookRunBody): string[] {
  if (trace.exitCode !== 0 || trace.timedOut) return [];
  let json: unknown;
  try {
    json = JSON.parse(trace.stdout.trim());
  } catch {
    return [];
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return [];
  const j = json as Record<string, unknown>;
  const out: string[] = [];
  if (typeof j.systemMessage === 'string' && j.systemMessage.trim()) out.push(j.systemMessage.trim());
  const specific = j.hookSpecificOutput as Record<string, unknown> | undefined;
  const ctx = specific && typeof specific === 'object' ? specific.additionalContext : undefined;
  if (typeof ctx === 'string' && ctx.trim()) out.push(ctx.trim());
  return out;
}

function hookName(trace: HookRunBody): string {
  const h = trace.hook;
  return h.type === 'command' ? h.command : h.type === 'http' ? h.url : h.type === 'prompt' ? h.prompt : h.name;
}
