/**
 * Picks the sandbox for a run and says why, in a sentence the UI shows next to the sandbox
 * badge. `auto` prefers WebContainer (real Node.js and npm) and falls back to just-bash; a
 * scenario that needs exact replays asks for just-bash outright. In a browser just-bash runs in a
 * Web Worker (`justbash-worker/`), in Node in the caller's thread.
 */
import type { Sandbox, SandboxKind } from '../harness/ports.ts';
import { BootView } from './boot-view.ts';
import { bootingSandbox, type BootingSandbox } from './booting-sandbox.ts';
import { canUseWorkers, createJustBashWorkerSandbox } from './justbash-worker/index.ts';

export type SandboxPreference = 'auto' | 'just-bash' | 'webcontainer';

export type ChooseSandboxOptions = {
  /** Initial files, path (absolute or workdir-relative) → content. */
  files?: Record<string, string>;
  /** How long to wait for WebContainer to boot; default 20 s. */
  bootTimeoutMs?: number;
};

export type ChosenSandbox = { sandbox: Sandbox; live: SandboxKind; reason: string };

/**
 * just-bash where it runs best: in a browser, in a Web Worker (a busy loop never freezes the page
 * and Stop interrupts it); elsewhere (Node), or when the Worker cannot start, in this thread.
 * `note` says which, for the reason sentence ('' for the plain in-thread case outside a browser).
 * With `spawnAfter`, it starts once that settles (the page's first worker on a first visit: see
 * `justbash-worker/early-worker.ts`).
 */
export async function createPreferredJustBash({ spawnAfter, ...opts }: { files?: Record<string, string>; mtimeMs?: number; spawnAfter?: Promise<void> } = {}): Promise<{ sandbox: Sandbox; note: string }> {
  let note = '';
  // `spawnAfter`: nothing starts (no worker, no just-bash) before it settles; a rejection counts as settled.
  if (spawnAfter) await spawnAfter.catch(() => undefined);
  if (canUseWorkers()) {
    try {
      return { sandbox: await createJustBashWorkerSandbox(opts), note: 'in a Worker: Stop interrupts even a busy loop' };
    } catch (err) {
      note = `in the page's thread (${err instanceof Error ? err.message : String(err)}): a busy loop ends only by its timeout`;
    }
  }
  // Loaded only now, so a page that uses the Worker never loads just-bash on its own thread.
  const { createJustBashSandbox } = await import('./justbash/index.ts');
  return { sandbox: await createJustBashSandbox(opts), note };
}

const JUST_BASH_CHOSEN = 'just-bash chosen by the scenario for exact replays';

/**
 * just-bash, chosen by the scenario, handed out before it has started (`booting-sandbox.ts`):
 * reads of its start files are answered while the worker loads, so a run's start-up reads do not
 * wait for it. `reason` is {@link chooseSandbox}'s sentence, once it is up.
 */
export function bootJustBash(opts: { files?: Record<string, string>; spawnAfter?: Promise<void> } = {}): { sandbox: BootingSandbox; reason: Promise<string> } {
  // One modification time for every start file and directory, so the view knows what `stat` says.
  const mtimeMs = Date.now();
  const made = createPreferredJustBash({ ...opts, mtimeMs });
  const sandbox = bootingSandbox({
    start: made.then((m) => m.sandbox),
    view: new BootView(opts.files ?? {}, [], mtimeMs),
    capabilities: { preemptiveAbort: canUseWorkers() },
  });
  const reason = sandbox.ready.then(() => made).then(({ note }) => `${JUST_BASH_CHOSEN}${note ? `; ${note}` : ''}`);
  // A caller that disposed the sandbox before it started may drop `reason`: its rejection is not unhandled.
  reason.catch(() => {});
  return { sandbox, reason };
}

export async function chooseSandbox(pref: SandboxPreference, opts: ChooseSandboxOptions = {}): Promise<ChosenSandbox> {
  const files = opts.files ? { files: opts.files } : {};
  if (pref === 'just-bash') {
    const { sandbox, note } = await createPreferredJustBash(files);
    return { sandbox, live: 'just-bash', reason: `${JUST_BASH_CHOSEN}${note ? `; ${note}` : ''}` };
  }
  try {
    // Loaded only now, so neither the adapter nor @webcontainer/api is in the first bundle.
    const { createWebContainerSandbox } = await import('./webcontainer/index.ts');
    const sandbox = await createWebContainerSandbox({
      ...files,
      ...(opts.bootTimeoutMs !== undefined ? { bootTimeoutMs: opts.bootTimeoutMs } : {}),
    });
    return {
      sandbox,
      live: 'webcontainer',
      reason: pref === 'webcontainer' ? 'WebContainer chosen by the scenario, and it booted' : 'WebContainer booted: real Node.js, npm and jsh',
    };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const sentence = pref === 'webcontainer' ? `The scenario asked for WebContainer: ${why}` : why;
    const { sandbox, note } = await createPreferredJustBash(files);
    return { sandbox, live: 'just-bash', reason: `${sentence} — using just-bash${note ? ` ${note}` : ''}` };
  }
}
