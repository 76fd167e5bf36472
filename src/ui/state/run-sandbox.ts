/**
 * The two outside things a run needs before its first event: a sandbox (chosen from the
 * scenario's settings, but never one that loads code from the network for a scenario from
 * outside the app) and, in live mode, a model client for the user's endpoint.
 */
import type { ModelClient, Sandbox } from '../../harness/index.ts';
import { WORKDIR } from '../../harness/ports.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { lockConnectTo } from '../../security/connect-lock.svelte.ts';
import type { RunState } from './run-state.svelte.ts';
import { errorText, type SandboxInfo } from './run-types.ts';
import type { ModelSettings } from './settings.svelte.ts';

/** Sandboxes seeded while booting, with the files (as JSON) and whether anything was written since. */
const bootSeeds = new WeakMap<Sandbox, { files: string; touched: boolean }>();

/**
 * Whether `sandbox` holds exactly `files` as the boot seeded them, nothing written since: a new
 * conversation's run then skips seeding (`PrepareOptions.seeded`), and its first Step writes nothing.
 */
export function seededAtBoot(sandbox: Sandbox, files: Readonly<Record<string, string>>): boolean {
  const seed = bootSeeds.get(sandbox);
  return seed !== undefined && !seed.touched && seed.files === JSON.stringify(files);
}

/** Notes that `sandbox` starts with exactly `files`, and watches for the first write after. */
function noteBootSeed(sandbox: Sandbox, files: Readonly<Record<string, string>>): void {
  const seed = { files: JSON.stringify(files), touched: false };
  bootSeeds.set(sandbox, seed);
  const unwatch = sandbox.fs.watch(() => {
    seed.touched = true;
    unwatch();
  });
}

/**
 * Whether a built-in scenario's files can go into its sandbox as it starts (off the first Step's
 * path). Not a scenario from outside (nothing of it lands before the trust question), nor one with
 * files for the user's home (`~/.claude/`), which a restored session must not find, nor one whose
 * paths put a file where another needs a folder (seeding reports that, at the run as always).
 */
function seedsAtBoot(scenario: Scenario): boolean {
  const paths = Object.keys(scenario.files);
  if (paths.some((p) => p.startsWith('~/'))) return false;
  const folders = new Set(paths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  return !paths.some((p) => folders.has(p));
}

/** For a sandbox that cannot take files as it starts (WebContainer): the same `seedFiles` the run would call, once it is up. */
async function seedWhenUp(sandbox: Sandbox, scenario: Scenario): Promise<void> {
  const { seedFiles } = await import('../../run/seed-files.ts');
  try {
    await seedFiles(sandbox, scenario.files);
  } catch {
    // Not recorded as seeded: the run seeds, and reports a failure where it always did.
    return;
  }
  noteBootSeed(sandbox, scenario.files);
}

/** A booted sandbox: `up` (when given) settles once it can run commands, with the final words for the badge. */
type BootedSandbox = { sandbox: Sandbox; info: SandboxInfo; up?: Promise<SandboxInfo> };

/**
 * Boots the sandbox `scenario` asks for; `fromApp()` false (a link or file) keeps it on just-bash.
 * just-bash is handed out at once, before its worker is up (`sandbox/booting-sandbox.ts`): a
 * built-in's files go in as it starts (the run then skips seeding, `seededAtBoot`), and reads of
 * them are answered meanwhile, so the first Step's start-up reads do not wait for the worker.
 */
export async function bootScenarioSandbox(scenario: Scenario, fromApp: () => boolean, spawnAfter?: Promise<void>): Promise<BootedSandbox> {
  const select = await import('../../sandbox/select.ts');
  // A scenario from a link or a file could ask for WebContainer, which loads code from
  // StackBlitz: nothing it asks for acts before trust, so it starts on just-bash.
  // Asked after the import: by then the trust gate has said where the scenario came from.
  const builtin = fromApp();
  const fromOutside = !builtin && scenario.settings.sandbox !== 'just-bash';
  const outsideReason = `this scenario came from outside the app and asks for ${scenario.settings.sandbox}; it runs on just-bash, which loads nothing from the network`;
  if (fromOutside || scenario.settings.sandbox === 'just-bash') {
    const seed = builtin && seedsAtBoot(scenario);
    const files = seed ? Object.fromEntries(Object.entries(scenario.files).map(([p, c]) => [`${WORKDIR}/${p}`, c])) : undefined;
    const { sandbox, reason } = select.bootJustBash({ ...(files ? { files } : {}), ...(spawnAfter ? { spawnAfter } : {}) });
    if (seed) noteBootSeed(sandbox, scenario.files);
    const up = reason.then((r): SandboxInfo => ({ kind: 'just-bash', reason: fromOutside ? outsideReason : r }));
    // A conversation reset while it started disposes it and drops `up`: that rejection is expected.
    up.catch(() => {});
    return { sandbox, info: { kind: 'just-bash', reason: 'just-bash is starting; reads of the scenario’s files are answered meanwhile' }, up };
  }
  const chosen = await select.chooseSandbox(scenario.settings.sandbox, {});
  if (builtin) await seedWhenUp(chosen.sandbox, scenario);
  return { sandbox: chosen.sandbox, info: { kind: chosen.live, reason: chosen.reason } };
}

/** A client for the live model of `settings`, with connect-src narrowed to its endpoint first. */
export async function bareLiveClient(settings: ModelSettings): Promise<ModelClient> {
  // Before the first call leaves: connect-src narrows to this endpoint (src/security/connect-lock.svelte.ts).
  lockConnectTo(settings.baseURL.trim());
  const { createAnthropicClient } = await import('../../model/anthropic/client.ts');
  return createAnthropicClient({
    apiKey: settings.apiKey.trim(),
    baseURL: settings.baseURL.trim(),
    dangerouslyAllowBrowser: true,
  });
}

/**
 * Boots the sandbox of conversation `run` (its `sandboxReady`): on screen once booted, disposed at
 * once when `current()` says the conversation was thrown away meanwhile (a reset). With `after` (the
 * previous conversation's sandbox being disposed), it starts once that has settled: a just-bash
 * worker disposed before it ran a command is handed back (`sandbox/justbash-worker/spare-worker.ts`),
 * so this boot reuses its compiled just-bash instead of loading another beside it. With `spawnAfter`, a
 * just-bash worker is created once that settles (the page's first, on a first visit: `firstWorkerGate`);
 * the sandbox is handed out at once all the same, its start files answering reads meanwhile.
 */
export function bootRunSandbox(run: RunState, scenario: Scenario, fromApp: () => boolean, current: () => boolean, after?: Promise<void>, spawnAfter?: Promise<void>): void {
  run.sandboxReady = (after ?? Promise.resolve())
    .then(() => bootScenarioSandbox(scenario, fromApp, spawnAfter))
    .then(({ sandbox, info, up }) => {
      if (!current()) {
        void sandbox.dispose();
        return null;
      }
      run.sandbox = sandbox;
      run.sandboxInfo = info;
      // When the page's first sandbox could take a command: the first-screen bench reads it.
      const mark = () => {
        if (performance.getEntriesByName('hp:sandbox-ready').length === 0) performance.mark('hp:sandbox-ready');
      };
      if (!up) mark();
      else
        up.then(
          (final) => {
            if (current()) run.sandboxInfo = final;
            mark();
          },
          (err: unknown) => {
            if (!current()) return;
            // Its calls say so too (file calls reject, commands end with 126); this says what to do,
            // and the next Step finds no sandbox (as when the boot itself failed).
            run.notice = `${errorText(err)}. Press Reset to try again.`;
            run.sandbox = null;
            run.sandboxReady = Promise.resolve(null);
          },
        );
      return sandbox;
    })
    .catch((err: unknown) => {
      if (current()) run.notice = `The sandbox did not start: ${errorText(err)}. Press Reset to try again.`;
      return null;
    });
}
