/**
 * What starting a run needs that the first screen may carry: the `RunStarter` shape and what it
 * reads of the controller (`StartHost`), which on-demand runners a scenario needs, and the page's
 * runners. The starter itself (`start-run.ts`) imports the whole harness and loads on demand
 * (`lazy-start.ts`).
 */
import type { JsHookRunner, ModelClient, Sandbox } from '../../harness/index.ts';
import type { UserToolRunner } from '../../harness/ports.ts';
import type { PermissionMode } from '../../harness/permissions/index.ts';
import type { Settings } from '../../harness/settings/index.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import type { Workbench } from '../sessions/workbench-record.ts';
import { createPageHttpHookClient } from './page-http-hook-client.ts';
import { hookEndpoints } from './hook-endpoints.svelte.ts';
import type { PermissionPrompts } from './permission-prompts.svelte.ts';
import { frameRunnerModule, needsJsHooks, needsToolRunner, pageToolModule, type RunNeeds } from './run-modules.ts';
import type { RunState } from './run-state.svelte.ts';
import type { RunSessionPort, StartOptions } from './run-types.ts';
import type { ModelSettings } from './settings.svelte.ts';
import type { TrustGate } from './trust-gate.svelte.ts';

/** Creates `run.gen` for the host. Returns false (with a notice on `run`) when the run cannot start. */
export type RunStarter = (host: StartHost, run: RunState, opts: StartOptions) => Promise<boolean>;

/** What a starter reads of the controller (`RunController` is one). */
export interface StartHost {
  /** The conversation now: a starter that finds another one after an await stops. */
  readonly state: RunState;
  readonly settings: ModelSettings;
  readonly scenario: Scenario;
  /** The whole document the scenario came from (trust and memory origins key to it). */
  readonly document: unknown;
  readonly trust: TrustGate;
  readonly prompts: PermissionPrompts;
  readonly modeOverride: PermissionMode | null;
  readonly userSettings: Settings | null;
  readonly userSettingsTrusted: boolean;
  readonly documentTrustKey: string;
  readonly runners: PageRunners;
  readonly session: RunSessionPort | null;
  /** Runs use the live model: the settings say so, or the person took over. */
  readonly live: boolean;
  liveClient(): Promise<ModelClient>;
  whenSandbox(): Promise<Sandbox | null>;
  workbench(): Workbench;
}

/** What decides which on-demand modules a run of `scenario` needs. */
export function runNeedsOf(scenario: Scenario, userSettings: Settings | null, live: boolean): RunNeeds {
  return { settings: scenario.settings, files: scenario.files, userSettings, live, customTools: scenario.settings.customTools?.length ?? 0 };
}

/** The page's runners for hooks and tools, loaded once a scenario needs them and kept across runs. */
export class PageRunners {
  jsRunner: JsHookRunner | null = null;
  toolRunner: UserToolRunner | null = null;
  // http hooks: only origins the user allowed in Settings → Hook endpoints (page-http-hook-client.ts).
  readonly httpHooks = createPageHttpHookClient({ allowedOrigins: () => hookEndpoints().origins });

  /** Loads what `needs` asks for (run-modules.ts). */
  async load(needs: RunNeeds): Promise<void> {
    // JS hooks run in the opaque-origin user-code sandbox, never with the app's own origin.
    if (!this.jsRunner && needsJsHooks(needs)) this.jsRunner = (await frameRunnerModule()).createFrameJsHookRunner();
    // Custom JS tools run in the same kind of sandbox (see src/ui/tools/page-tool-runner.ts).
    if (!this.toolRunner && needsToolRunner(needs)) this.toolRunner = await (await pageToolModule()).pageToolRunner();
  }
}
