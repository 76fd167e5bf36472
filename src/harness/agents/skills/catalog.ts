/**
 * Skill discovery: the built-in skills bundled with the app and the CLI (the repo's top-level
 * `skills/` folder, delivered through the {@link SkillFilesLoader} port), then the sandbox's
 * `.claude/skills/<name>/SKILL.md` (the project's own, and a scenario's, which are written there).
 * A project skill with the name of a built-in replaces it, as a project setting beats a default.
 * A broken SKILL.md is reported with its file and line; the others still load.
 */
import type { SandboxFs } from '../../ports.ts';
import { byCodeUnits } from '../../util/order.ts';
import { parseSkillFile, type Skill, type SkillOrigin, type SkillProblem } from './skill-file.ts';

/** A file of the bundled `skills/` folder: `path` relative to it, e.g. `code-review/SKILL.md`. */
export type SkillFile = { path: string; content: string };

/**
 * Port: the bundled skill files. Contract: resolves with every file under `skills/` (any depth),
 * paths relative to that folder with `/` separators; never rejects (an unreadable file is left
 * out). Implementations: `src/skills-bundle/vite.ts` (the app, bundled at build time) and
 * `src/skills-bundle/node.ts` (the CLI and tests, read from the repo).
 */
export type SkillFilesLoader = () => Promise<SkillFile[]>;

export type SkillCatalog = { skills: Skill[]; problems: SkillProblem[] };

export const PROJECT_SKILLS_DIR = '.claude/skills';

export function emptyCatalog(): SkillCatalog {
  return { skills: [], problems: [] };
}

/** The built-in skills from bundled files, one folder each. */
export function builtinSkills(files: readonly SkillFile[]): SkillCatalog {
  const byFolder = new Map<string, SkillFile[]>();
  for (const f of files) {
    const [folder, ...rest] = f.path.split('/');
    if (!folder || rest.length === 0) continue;
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), { path: rest.join('/'), content: f.content }]);
  }
  const catalog = emptyCatalog();
  for (const [folder, entries] of [...byFolder].sort(([a], [b]) => byCodeUnits(a, b))) {
    const main = entries.find((e) => e.path === 'SKILL.md');
    const path = `skills/${folder}/SKILL.md`;
    if (!main) {
      catalog.problems.push({ path: `skills/${folder}/`, message: 'this skill folder has no SKILL.md; add one or remove the folder.' });
      continue;
    }
    const parsed = parseSkillFile(main.content, path, folder);
    if (!parsed.ok) {
      catalog.problems.push(parsed.problem);
      continue;
    }
    for (const w of parsed.warnings) catalog.problems.push({ path, message: `warning (the skill loads): ${w}` });
    const others = entries.filter((e) => e !== main).sort((a, b) => byCodeUnits(a.path, b.path));
    catalog.skills.push({
      name: parsed.name,
      description: parsed.description,
      allowedTools: parsed.allowedTools,
      body: parsed.body,
      origin: 'builtin',
      path,
      files: others.map((o) => o.path),
      fileContents: Object.fromEntries(others.map((o) => [o.path, o.content])),
    });
  }
  return catalog;
}

/** Skills under `.claude/skills/` in the sandbox; `scenarioNames` are marked as the scenario's. */
export async function sandboxSkills(fs: SandboxFs, workdir: string, scenarioNames: ReadonlySet<string> = new Set()): Promise<SkillCatalog> {
  const catalog = emptyCatalog();
  const root = `${workdir}/${PROJECT_SKILLS_DIR}`;
  const dirs = await fs.list(root).catch(() => []);
  for (const d of dirs) {
    if (d.kind !== 'dir') continue;
    const path = `${PROJECT_SKILLS_DIR}/${d.name}/SKILL.md`;
    let text: string;
    try {
      text = await fs.readFile(`${workdir}/${path}`);
    } catch {
      catalog.problems.push({ path: `${PROJECT_SKILLS_DIR}/${d.name}/`, message: 'this skill folder has no readable SKILL.md.' });
      continue;
    }
    const parsed = parseSkillFile(text, path, d.name);
    if (!parsed.ok) {
      catalog.problems.push(parsed.problem);
      continue;
    }
    for (const w of parsed.warnings) catalog.problems.push({ path, message: `warning (the skill loads): ${w}` });
    const origin: SkillOrigin = scenarioNames.has(d.name) ? 'scenario' : 'project';
    const files = (await listFiles(fs, `${root}/${d.name}`)).filter((f) => f !== 'SKILL.md');
    catalog.skills.push({ name: parsed.name, description: parsed.description, allowedTools: parsed.allowedTools, body: parsed.body, origin, path, files });
  }
  return catalog;
}

/** Later catalogs win by name (project over built-in); problems are kept from all. */
export function mergeCatalogs(...catalogs: SkillCatalog[]): SkillCatalog {
  const byName = new Map<string, Skill>();
  for (const c of catalogs) for (const s of c.skills) byName.set(s.name, s);
  return { skills: [...byName.values()].sort((a, b) => byCodeUnits(a.name, b.name)), problems: catalogs.flatMap((c) => c.problems) };
}

/** Every file below `dir`, relative to it (an absent folder has none). */
export async function listFiles(fs: SandboxFs, dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.list(dir).catch(() => [])) {
    if (e.kind === 'dir') out.push(...(await listFiles(fs, `${dir}/${e.name}`, `${prefix}${e.name}/`)));
    else out.push(`${prefix}${e.name}`);
  }
  return out;
}
