/**
 * The built-in skills for the app: every file of the repo's top-level `skills/` folder, bundled
 * at build time by Vite. Implements the `SkillFilesLoader` port (`harness/agents/skills/catalog.ts`).
 */
import { byCodeUnits } from '../harness/util/index.ts';
import type { SkillFile, SkillFilesLoader } from '../harness/agents/index.ts';

const raw = import.meta.glob('/skills/**/*', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const bundledSkillFiles: SkillFile[] = Object.entries(raw)
  .map(([path, content]) => ({ path: path.replace(/^\/skills\//, ''), content }))
  .sort((a, b) => byCodeUnits(a.path, b.path));

export const loadBundledSkills: SkillFilesLoader = async () => bundledSkillFiles;
