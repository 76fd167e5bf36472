/**
 * Which agent tools a run gets. Opt-in per run (`AgentFeature`), so runs that do not use them
 * send exactly the tools they did before (the model's prompt, and the cache, stay the same).
 */
import { bashTool } from '../tools/bash.ts';
import type { AnyTool } from '../tools/tool.ts';
import { bashOutputTool, killShellTool } from './background/tools.ts';
import type { SkillCatalog } from './skills/catalog.ts';
import { skillTool } from './skills/skill-tool.ts';
import { taskTools } from './tasks/tools.ts';

/** `teams` adds the team tools to the lead (in `pool.ts`, where the run's models are known). */
export type AgentFeature = 'skills' | 'tasks' | 'background' | 'teams';

/**
 * `base` with the features' tools: `background` swaps `bash` for the one that takes
 * `run_in_background` and adds `bash_output` / `kill_shell`; `tasks` adds the four task tools;
 * `skills` adds `skill` over `catalog`.
 */
export function agentTools(base: readonly AnyTool[], features: ReadonlySet<AgentFeature>, catalog?: SkillCatalog): AnyTool[] {
  const tools = base.map((t) => (t.name === 'bash' && features.has('background') ? bashTool({ background: true }) : t));
  if (features.has('background')) tools.push(bashOutputTool(), killShellTool());
  if (features.has('tasks')) tools.push(...taskTools());
  if (features.has('skills') && catalog) tools.push(skillTool(catalog));
  return tools;
}
