/**
 * A new conversation's files: the scenario's written into the sandbox, under the project, except
 * the user's own `~/.claude/` files (CLAUDE.md and commands), which go to the sandbox's home.
 */
import { HOME_DIR, type Sandbox } from '../harness/ports.ts';

/** The user's own memory file, as an imported `~/.claude/` brings it: seeded into the sandbox's home. */
export const USER_MEMORY_FILE = '~/.claude/CLAUDE.md';
/** The user's own slash commands (`~/.claude/commands/*.md`): seeded into the sandbox's home too. */
const USER_COMMANDS_PREFIX = '~/.claude/commands/';

/** Writes `files` (paths relative to the project, or `~/.claude/…`) into the sandbox. */
export async function seedFiles(sandbox: Sandbox, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    // Only the user's CLAUDE.md and commands go to the home directory; every other path stays under the project.
    const home = path === USER_MEMORY_FILE || path.startsWith(USER_COMMANDS_PREFIX);
    await sandbox.fs.writeFile(home ? `${HOME_DIR}/${path.slice(2)}` : `${sandbox.workdir}/${path}`, content);
  }
}
