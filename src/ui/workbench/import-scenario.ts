/**
 * An imported `.claude/` becomes a scenario to run: the current scenario with the imported files
 * added to its sandbox files (settings, CLAUDE.md, skills, agents, .mcp.json, hook scripts, and the
 * project files of a picked folder). It is added to the library as an import, so the trust gate
 * asks before anything in it can act — exactly like an imported scenario file.
 */
import type { Scenario } from '../../scenarios/schema.ts';
import type { ClaudeDirImport } from '../../harness/claude-dir/index.ts';

export function scenarioWithImport(base: Scenario, imp: ClaudeDirImport, name: string): Scenario {
  return {
    ...base,
    id: `${base.id}-claude`,
    title: `${base.title} + ${name}`,
    files: { ...base.files, ...imp.sandboxFiles },
  };
}
