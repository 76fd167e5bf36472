/**
 * The agents part of preparing a run: which agent tools the scenario gets, its skill catalog
 * (built-ins + the sandbox's `.claude/skills/`, where a scenario's own skills are written) and
 * its steering inbox (the scenario's scripted messages plus the person's live queue).
 */
import { agentTools, type AgentFeature } from '../harness/agents/index.ts';

/** Every agent feature: what a live run offers, whatever the scenario opted into. */
export const ALL_AGENT_FEATURES: AgentFeature[] = ['skills', 'tasks', 'background'];

/** What a live run offers: every agent feature, and teams too when the person turned them on in Settings. */
export function liveAgentFeatures(prefs: { teamsLive: boolean }): AgentFeature[] {
  return prefs.teamsLive ? [...ALL_AGENT_FEATURES, 'teams'] : ALL_AGENT_FEATURES;
}
import { builtinSkills, mergeCatalogs, PROJECT_SKILLS_DIR, sandboxSkills, type SkillCatalog, type SkillFile } from '../harness/agents/index.ts';
import { combinedInbox, scriptedSteering, type SteeringInbox } from '../harness/agents/index.ts';
import type { LoopInput } from '../harness/index.ts';
import type { Sandbox } from '../harness/ports.ts';
import type { AnyTool } from '../harness/tools/index.ts';
import type { Scenario } from '../scenarios/schema.ts';

export type PreparedAgents = {
  tools: (base: AnyTool[]) => AnyTool[];
  input: Pick<LoopInput, 'steering' | 'skills'>;
  /** The scenario opted into teams: the lead gets the team tools. */
  teams: boolean;
};

export async function prepareAgents(opts: {
  scenario: Scenario;
  sandbox: Sandbox;
  firstRun: boolean;
  skillFiles?: SkillFile[];
  steering?: SteeringInbox;
  extraFeatures?: AgentFeature[];
}): Promise<PreparedAgents> {
  const { scenario, sandbox } = opts;
  const features = new Set<AgentFeature>([...(scenario.settings.agentTools ?? []), ...(opts.extraFeatures ?? [])]);
  const prefix = `${PROJECT_SKILLS_DIR}/`;
  const scenarioSkills = new Set(Object.keys(scenario.files).filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length).split('/')[0]!));
  let catalog: SkillCatalog | undefined;
  const inSandbox = await sandboxSkills(sandbox.fs, sandbox.workdir, scenarioSkills);
  if (inSandbox.skills.length > 0 || inSandbox.problems.length > 0) features.add('skills');
  if (features.has('skills')) catalog = mergeCatalogs(builtinSkills(opts.skillFiles ?? []), inSandbox);

  const inboxes: SteeringInbox[] = [];
  // Scripted steering belongs to the scenario's first prompt, so a replay delivers it at the same step.
  if (opts.firstRun && scenario.settings.steering?.length) inboxes.push(scriptedSteering(scenario.settings.steering));
  if (opts.steering) inboxes.push(opts.steering);
  const steering = inboxes.length === 0 ? undefined : inboxes.length === 1 ? inboxes[0]! : combinedInbox(inboxes);

  return {
    tools: (base) => agentTools(base, features, catalog),
    teams: features.has('teams'),
    input: { ...(steering ? { steering } : {}), ...(catalog ? { skills: catalog } : {}) },
  };
}
