/**
 * A tab opened as a teammate of a team whose lead runs in another tab (`?teammate=`, see
 * `ui/team/tab-link.ts`). Its `ctl` is a run controller like the lead's — Step pulls one event, Run
 * plays on, the event stream and the Team view read the same log — given another `RunStarter`:
 * its run is `teammateTabRun` (join as the teammate, then move this tab's side of the team).
 *
 * Where its files come from: this tab boots the scenario's sandbox and, when the lead's tab
 * welcomes it, replaces the working tree with the lead's copy (the team's `.tasks/` and `.team/`
 * are synced note by note). The teammate works on that copy here; what it changes goes back after
 * each of its turns, and the lead's tab merges it (overlaps refused) when the teammate finishes.
 */
import { realClock } from '../../harness/clock.ts';
import { teammateTabRun } from '../../harness/agents/index.ts';
import { prepareRun } from '../../run/prepare.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { bundledSkillFiles } from '../../skills-bundle/vite.ts';
import { LocalTrustStore } from '../../storage/local/trust-store.ts';
import { TabChannel, type TeammateLink } from '../team/tab-link.ts';
import { RunController } from './run-controller.svelte.ts';
import type { ModelSettings } from './settings.svelte.ts';
import { shellParserModule } from './run-modules.ts';
import type { RunStarter } from './run-starter.ts';

export class TeammateTab {
  /** This tab on the team's channel (null until the run starts). */
  tabs = $state.raw<TabChannel | null>(null);
  readonly ctl: RunController;

  constructor(
    readonly link: TeammateLink,
    scenario: Scenario,
    settings: ModelSettings,
  ) {
    this.ctl = new RunController({ scenario, settings, trustStore: new LocalTrustStore(), starter: this.start });
  }

  /** Joined: the lead's tab welcomed this one (its first events are in the log). */
  get joined(): boolean {
    return this.ctl.events.some((e) => e.type === 'teammate.joined');
  }

  /** The lead's team ended (its tab closed or its run ended): nothing more will come. */
  get leadGone(): boolean {
    return this.ctl.events.some((e) => e.type === 'agent.state' && e.name === this.link.name && e.why.startsWith("the lead's team ended"));
  }

  private readonly start: RunStarter = async (ctl, run) => {
    const sandbox = await ctl.whenSandbox();
    if (!sandbox) {
      run.notice ??= 'The sandbox did not start. Reload the tab to try again.';
      return false;
    }
    const abort = new AbortController();
    // The same parser judges Bash commands here as in the lead's tab and the CLI.
    const shellParser = sandbox.kind === 'just-bash' ? (await shellParserModule()).justBashShellParser : undefined;
    const prepared = await prepareRun({
      scenario: ctl.scenario,
      sandbox,
      ...(shellParser ? { shellParser } : {}),
      signal: abort.signal,
      // Only built-in scenarios can be joined (the link names one): what they bring ships with the app.
      trusted: true,
      teammateTab: true,
      // The tab's own Settings (the same browser's saved preferences as the lead's tab).
      scriptedChunkDelayMs: ctl.settings.scriptedChunkDelayMs,
      askPermission: ctl.prompts.ask,
      sessionGrants: run.grants,
      skillFiles: bundledSkillFiles,
    });
    if (!prepared.team) {
      run.notice = `“${ctl.scenario.title}” has no team, so there is nothing to join.`;
      return false;
    }
    this.tabs = new TabChannel(prepared.team, this.link);
    run.abort = abort;
    run.gen = teammateTabRun(prepared.team, this.link.name, { clock: realClock, signal: abort.signal });
    return true;
  };
}
