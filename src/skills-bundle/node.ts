/**
 * The built-in skills for Node (the headless runner, tests, benchmarks): the repo's top-level
 * `skills/` folder read from disk. Implements the `SkillFilesLoader` port; never rejects — an
 * unreadable folder gives no skills, and the catalog simply has none.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { byCodeUnits } from '../harness/util/index.ts';
import type { SkillFile, SkillFilesLoader } from '../harness/agents/index.ts';

// From the sources (`src/skills-bundle/`) the folder is two levels up; from the bundled runner
// (`dist-cli/harness.mjs`) one level up.
const candidates = ['../../skills/', '../skills/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
export const SKILLS_ROOT = candidates.find((dir) => existsSync(`${dir}/code-review/SKILL.md`)) ?? candidates[0]!;

export function nodeSkillLoader(root = SKILLS_ROOT): SkillFilesLoader {
  return async () => {
    const out: SkillFile[] = [];
    const walk = async (rel: string): Promise<void> => {
      const entries = await readdir(`${root}/${rel}`, { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(path);
        else if (e.isFile()) {
          const content = await readFile(`${root}/${path}`, 'utf8').catch(() => null);
          if (content !== null) out.push({ path, content });
        }
      }
    };
    await walk('');
    return out.sort((a, b) => byCodeUnits(a.path, b.path));
  };
}
