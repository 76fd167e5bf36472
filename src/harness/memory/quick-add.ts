/**
 * Claude Code's `#` quick-add: a prompt that starts with `#` is not sent to the model — the rest
 * of the line is saved as a memory, a bullet at the end of the project's `CLAUDE.md` (which the
 * next conversation reads). `##…` is left alone (a Markdown heading is a prompt). The store-based
 * "Remember: …" extraction (`extract.ts`) is unchanged.
 */
import type { SandboxFs } from '../ports.ts';
import { MEMORY_FILE_NAME } from './claude-md.ts';

/** The note a `# note` prompt asks to save, or `null` when the prompt is an ordinary one. */
export function quickAddNote(prompt: string): string | null {
  const m = /^#(?!#)\s*(\S[^]*)$/.exec(prompt.trim());
  return m ? m[1]!.replace(/\s+/g, ' ').trim() : null;
}

/** Appends `- note` to `<workdir>/CLAUDE.md` (created when missing); returns the file written. */
export async function addQuickMemory(fs: Pick<SandboxFs, 'readFile' | 'writeFile' | 'stat'>, workdir: string, note: string): Promise<{ path: string; line: string }> {
  const path = `${workdir}/${MEMORY_FILE_NAME}`;
  const before = (await fs.stat(path))?.kind === 'file' ? await fs.readFile(path) : '';
  const line = `- ${note}`;
  const sep = before === '' || before.endsWith('\n') ? '' : '\n';
  await fs.writeFile(path, `${before}${sep}${line}\n`);
  return { path, line };
}
