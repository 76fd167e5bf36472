/**
 * The custom slash commands a run can use: the project's `.claude/commands/**\/*.md` and the
 * user's `~/.claude/commands/**\/*.md` in the sandbox (the project's wins a name both have, as the
 * nearer scope). Whether they may run is the caller's: a command from a document nobody trusted
 * is listed but refused (`trusted: false`), since its prompt and its `allowed-tools` act.
 */
import { byCodeUnits } from '../util/order.ts';
import { listFiles } from '../agents/skills/catalog.ts';
import { HOME_DIR, type SandboxFs } from '../ports.ts';
import { parseCommandFile, type CommandProblem, type CommandScope, type ProjectCommand } from './command-file.ts';

export const PROJECT_COMMANDS_DIR = '.claude/commands';

export type CommandCatalog = { commands: ProjectCommand[]; problems: CommandProblem[]; trusted: boolean };

export async function loadCommands(fs: SandboxFs, workdir: string, opts: { trusted: boolean; home?: string }): Promise<CommandCatalog> {
  const byName = new Map<string, ProjectCommand>();
  const problems: CommandProblem[] = [];
  const roots: [CommandScope, string, string][] = [
    ['user', `${opts.home ?? HOME_DIR}/${PROJECT_COMMANDS_DIR}`, `~/${PROJECT_COMMANDS_DIR}`],
    ['project', `${workdir}/${PROJECT_COMMANDS_DIR}`, PROJECT_COMMANDS_DIR],
  ];
  for (const [scope, dir, shown] of roots) {
    for (const rel of (await listFiles(fs, dir)).filter((f) => f.endsWith('.md')).sort()) {
      const parsed = parseCommandFile(await fs.readFile(`${dir}/${rel}`), `${shown}/${rel}`, scope);
      if (parsed.ok) byName.set(parsed.command.name, parsed.command);
      else problems.push(parsed.problem);
    }
  }
  return { commands: [...byName.values()].sort((a, b) => byCodeUnits(a.name, b.name)), problems, trusted: opts.trusted };
}
