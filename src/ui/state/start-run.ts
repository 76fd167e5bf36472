/**
 * How the page's run controller starts a run of its scenario: the checks before anything is sent
 * (live settings, trust, the live-context question, the scripted follow-up), the on-demand runners,
 * then `prepareRun` with everything the conversation carries over (`RunState`). The controller's
 * default `RunStarter`; a teammate tab has its own (`teammate-tab.svelte.ts`).
 *
 * It imports the whole harness (`run/prepare.ts`), so the first screen does not carry it: the
 * controller reaches it through `lazy-start.ts`, which loads this module at idle after the first paint.
 */
import { money } from './money.svelte.ts';
import { applyTrust } from '../../harness/trust/light.ts';
import { lastRunCleared, needsNoModel } from '../../harness/commands/index.ts';
import { prepareRun, runPrepared } from '../../run/prepare.ts';
import { documentLiveContext, mustConfirmLiveContext } from '../../run/live-context.ts';
import { liveAgentFeatures } from '../../run/prepare-agents.ts';
import { bundledSkillFiles } from '../../skills-bundle/vite.ts';
import { browserMemoryStore } from '../memory/browser-store.ts';
import { mcpSession } from '../mcp/mcp-session.svelte.ts';
import { TabChannel, tabsAvailable } from '../team/tab-link.ts';
import { learnReadsOf } from './restore-reads.ts';
import { memoryContext } from './run-memory.ts';
import { judgedWithPageParser, pageShellParser } from './page-shell-parser.ts';
import { seededAtBoot } from './run-sandbox.ts';
import { runNeedsOf, type RunStarter } from './run-starter.ts';
import { scriptedFollowUp } from './scripted-follow-up.ts';

/** The page's starter: binds the ports for this scenario and creates `run.gen` (see above). */
export const startScenarioRun: RunStarter = async (ctl, run, opts) => {
  const live = ctl.live;
  const { settings } = ctl;
  if (live && settings.liveProblem) {
    run.notice = settings.liveProblem;
    return false;
  }
  if (!live && ctl.scenario.model.kind === 'anthropic') {
    run.notice = 'This scenario needs a live model: choose "anthropic" as the model mode in Settings and add your API key.';
    return false;
  }
  run.phase = run.sandbox ? 'Preparing the run…' : 'Booting the sandbox…';
  const sandbox = await ctl.whenSandbox();
  if (run !== ctl.state) return false;
  if (!sandbox) {
    run.notice ??= 'The sandbox is not available. Press Reset to try again.';
    return false;
  }
  run.phase = 'Preparing the run…';
  // A follow-up in scripted mode continues the script where the last run left it, or says it has ended.
  const follow =
    !live && !opts.model && opts.history?.length && ctl.scenario.model.kind === 'scripted'
      ? scriptedFollowUp(run.lastModel, ctl.scenario.model.turns, run.events)
      : null;
  // A built-in slash command (`/compact`, `/hooks` …) never calls the model: a used-up script still runs it.
  if (follow?.kind === 'ended' && !(opts.prompt !== undefined && needsNoModel(opts.prompt))) {
    run.notice = follow.message;
    run.phase = '';
    return false;
  }
  const continued = follow?.kind === 'continue' ? follow.model : undefined;
  const model = opts.model ?? (live ? await ctl.liveClient() : continued);
  if (ctl.trust.blocking) {
    run.notice = 'Answer the trust question first: nothing from this scenario runs before you do.';
    return false;
  }
  const brings = documentLiveContext(ctl.scenario);
  if (mustConfirmLiveContext({ live, trusted: ctl.trust.trusted, outside: ctl.trust.status !== 'builtin', brings, answered: run.liveContextAnswer !== null })) {
    run.liveContext = { brings: brings!, pending: opts, mode: run.mode };
    run.notice = 'This untrusted scenario would add its own system prompt or CLAUDE.md to what is sent with your key: choose at the top of the page whether to send them.';
    return false;
  }
  // The hook and tool runners load on demand, and only for a scenario that can use them (run-modules.ts).
  const { runners } = ctl;
  await runners.load(runNeedsOf(ctl.scenario, ctl.userSettings, live));
  // A saved price table is in force once checked (money.svelte.ts): at once by now, but never read before.
  await money.ready;
  const abort = new AbortController();
  if (run.seenToRestore) {
    await learnReadsOf(run.seenToRestore, sandbox, run.files);
    run.seenToRestore = null;
  }
  const session = ctl.session;
  // Bash commands are judged on the parse tree of the shell that runs them, as in the CLI; the
  // parser loads at the run's first model request and is awaited before any call is judged.
  const shellParser = sandbox.kind === 'just-bash' ? pageShellParser() : undefined;
  const prepared = await prepareRun({
    // After a reload the script resumes at the first turn not yet played.
    scenario: follow?.kind === 'resume' ? { ...ctl.scenario, model: { kind: 'scripted', turns: follow.turns } } : ctl.scenario,
    sandbox,
    // A built-in scenario's files went in while the sandbox booted (run-sandbox.ts): not again in the first Step.
    ...(seededAtBoot(sandbox, ctl.scenario.files) ? { seeded: true } : {}),
    model,
    ...(live ? { modelId: settings.modelId.trim(), countTokens: true, deferTools: true } : { scriptedChunkDelayMs: settings.scriptedChunkDelayMs }),
    ...(follow?.kind === 'resume' ? { scriptedToolIdStart: follow.toolIdStart } : {}),
    prompt: opts.prompt,
    history: opts.history,
    // Money: the page's price table, and its dollar ceiling over the scenario's.
    prices: money.prices,
    ...(money.maxBudgetUsd !== null ? { maxBudgetUsd: money.maxBudgetUsd } : {}),
    // A follow-up continues the context pipeline where the last run left it (stored originals, collapses).
    ...(opts.history?.length && run.result ? { contextState: run.result.contextState } : {}),
    files: run.files,
    signal: abort.signal,
    // Built-in scenarios ship with the app, so what they bring is trusted; a link or an
    // imported file only once the user said so in the trust dialog.
    trusted: ctl.trust.trusted,
    ...(ctl.modeOverride ? { mode: ctl.modeOverride } : {}),
    askPermission: ctl.prompts.ask,
    ...(shellParser ? { shellParser } : {}),
    sessionGrants: run.grants,
    ...(runners.jsRunner ? { jsRunner: runners.jsRunner } : {}),
    httpHookClient: runners.httpHooks,
    // Background hooks belong to the session: one that ends after a run reports at the next prompt.
    asyncHooks: run.asyncHooks,
    ...(runners.toolRunner ? { toolRunner: runners.toolRunner } : {}),
    memoryStore: browserMemoryStore(),
    ...memoryContext(ctl.scenario, ctl.document, ctl.trust.documentHash, opts.prompt, session ? () => session.sessionId() : null),
    // Memory is chosen at the first prompt and kept for follow-ups (message 0 stays cache-stable).
    ...(opts.history?.length && run.memoryText !== undefined ? { memory: run.memoryText } : {}),
    ...(run.nextSessionStart ? { sessionStart: run.nextSessionStart } : {}),
    // After `/clear` the conversation is empty but the sandbox is not: keep its files.
    ...(opts.history?.length === 0 && lastRunCleared(run.events) ? { afterClear: true } : {}),
    skillFiles: bundledSkillFiles,
    // devkit: an imported ~/.claude/settings.json is the user scope: what can act in it only once
    // trusted itself, and (as for the rest) only in a trusted run.
    ...(ctl.userSettings ? { settingsScopes: [{ source: 'user', settings: applyTrust(ctl.userSettings, ctl.userSettingsTrusted) }] } : {}),
    steering: run.steering.queue,
    // A live model gets every agent tool (teams when Settings says so); a scripted replay only what its scenario opted into.
    ...(live ? { agentTools: liveAgentFeatures(settings), ...(settings.memoryByModel ? { memoryByModel: true } : {}) } : {}),
    ...(live && run.liveContextAnswer === 'drop' ? { documentContext: 'drop' as const } : {}),
    // A tool saved in the Tools tab while this run works joins its next request (tools.changed).
    liveCustomTools: () => ctl.scenario.settings.customTools,
    // MCP servers: the panel's and the project's .mcp.json (src/ui/mcp/).
    ...(await mcpSession.runOptions(ctl.documentTrustKey)),
  });
  if (run !== ctl.state) return false;
  const { input, deps } = prepared;
  if (!opts.history?.length) run.memoryText = input.memory ?? '';
  // A fork brings its whole history (the prompt is already in it).
  if (opts.messages) input.messages = opts.messages;
  run.lastModel = deps.model;
  run.runPermissions = input.permissions ?? null;
  run.abort = abort;
  run.result = null;
  run.nextSessionStart = null;
  // A team: other tabs of this origin can join its in_tab teammates; the run's end ends the team.
  run.teamTabs?.close();
  run.teamTabs = prepared.team && tabsAvailable() ? new TabChannel(prepared.team) : null;
  const ran = runPrepared(prepared, input);
  const loop = shellParser ? judgedWithPageParser(ran) : ran;
  const info = { sandbox, newConversation: !opts.history?.length, prompt: opts.prompt ?? ctl.scenario.prompt, workbench: () => ctl.workbench() };
  run.gen = session ? session.wrapRun(loop, info) : loop;
  return true;
};
