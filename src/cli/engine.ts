/**
 * What the runner loads lazily, once the command line is known to be good (start-up stays short:
 * see README "Start-up"): the scenario library, the print-flag readers and the engine itself.
 */

export const DEFAULT_LIVE_MODEL = 'claude-sonnet-5-5';

/**
 * yaml and RE2 (`harness/util/engines.ts`), which settings, tier patterns and hook matchers are read
 * with: loaded with each of the three below, before anything can parse (the library validates its
 * built-ins as it loads).
 */
export const engines = () => import('../harness/util/index.ts').then((m) => m.loadDocumentEngines());

export const library = () => engines().then(() => import('../scenarios/library/index.ts'));
/** The print-mode flags' readers (rules, prices, stdin): they pull the rule parser and the price table. */
export const runOptions = () => engines().then(() => import('./run-options.ts'));
/** The harness, the sandbox and the scenario format: loaded once the command line is known to be good. */
export const engine = async () => {
  // No just-bash here: a run's sandbox is on its own thread (cli-sandbox.ts), which loads it there.
  const [harness, prepare, migrate, schema, agents, skills, agentFeatures, toolRunner, output] = await Promise.all([
    engines().then(() => import('../harness/index.ts')),
    import('../run/prepare.ts'),
    import('../scenarios/migrate.ts'),
    import('../scenarios/schema.ts'),
    import('../harness/agents/index.ts').then((m) => ({ scriptedSteering: m.scriptedSteering, modelAliasesFromEnv: m.modelAliasesFromEnv })),
    import('../skills-bundle/node.ts'),
    import('../run/prepare-agents.ts'),
    import('../user-code/tools/node-tool-runner.ts'),
    import('./output.ts'),
  ]);
  return { ...harness, ...prepare, ...migrate, ...schema, ...agents, ...skills, ...agentFeatures, ...toolRunner, ...output };
};
