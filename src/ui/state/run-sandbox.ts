/**
 * The two outside things a run needs before its first event: a sandbox (chosen from the
 * scenario's settings, but never one that loads code from the network for a scenario from
 * outside the app) and, in live mode, a model client for the user's endpoint.
 */
import type { ModelClient, Sandbox } from '../../harness/index.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { lockConnectTo } from '../../security/connect-lock.svelte.ts';
import type { RunState } from './run-state.svelte.ts';
import { errorText, type SandboxInfo } from './run-types.ts';
import type { ModelSettings } from './settings.svelte.ts';

/** Boots the sandbox `scenario` asks for; `fromApp()` false (a link or file) keeps it on just-bash. */
export async function bootScenarioSandbox(scenario: Scenario, fromApp: () => boolean): Promise<{ sandbox: Sandbox; info: SandboxInfo }> {
  const { chooseSandbox } = await import('../../sandbox/select.ts');
  // A scenario from a link or a file could ask for WebContainer, which loads code from
  // StackBlitz: nothing it asks for acts before trust, so it starts on just-bash.
  // Asked after the import: by then the trust gate has said where the scenario came from.
  const fromOutside = !fromApp() && scenario.settings.sandbox !== 'just-bash';
  const chosen = await chooseSandbox(fromOutside ? 'just-bash' : scenario.settings.sandbox, {});
  if (fromOutside) chosen.reason = `this scenario came from outside the app and asks for ${scenario.settings.sandbox}; it runs on just-bash, which loads nothing from the network`;
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
 * once when `current()` says the conversation was thrown away meanwhile (a reset).
 */
export function bootRunSandbox(run: RunState, scenario: Scenario, fromApp: () => boolean, current: () => boolean): void {
  run.sandboxReady = bootScenarioSandbox(scenario, fromApp)
    .then(({ sandbox, info }) => {
      if (!current()) {
        void sandbox.dispose();
        return null;
      }
      run.sandbox = sandbox;
      run.sandboxInfo = info;
      return sandbox;
    })
    .catch((err: unknown) => {
      if (current()) run.notice = `The sandbox did not start: ${errorText(err)}. Press Reset to try again.`;
      return null;
    });
}
