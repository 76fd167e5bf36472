/**
 * At run start, like Claude Code, read the project's `.claude/settings.json` (project scope) and
 * `.claude/settings.local.json` (local scope) from the sandbox itself, so a scenario, a Files
 * panel edit, an imported `.claude/` and the headless runner's `--dir` all behave alike. A file
 * that does not parse is left out and reported with its lines (Claude Code drops it silently).
 */
import type { SandboxFs } from '../ports.ts';
import { parseSettings } from '../settings/parse.ts';
import type { ScopedSettings } from '../settings/merge.ts';
import type { SettingsFileRead } from '../trace.ts';
import { LOCAL_SETTINGS, PROJECT_SETTINGS } from './paths.ts';

export type { SettingsFileRead };


export type SandboxSettings = { scopes: ScopedSettings[]; read: SettingsFileRead[] };

export async function readSandboxSettings(fs: SandboxFs, workdir: string, skip: ReadonlySet<string> = new Set()): Promise<SandboxSettings> {
  const out: SandboxSettings = { scopes: [], read: [] };
  for (const [scope, path] of [
    ['local', LOCAL_SETTINGS],
    ['project', PROJECT_SETTINGS],
  ] as const) {
    if (skip.has(scope)) continue;
    const abs = `${workdir}/${path}`;
    if ((await fs.stat(abs))?.kind !== 'file') continue;
    let text: string;
    try {
      text = await fs.readFile(abs);
    } catch (err) {
      out.read.push({ path, scope, ok: false, rules: 0, hooks: 0, problems: [{ line: 1, column: 1, message: `could not be read: ${err instanceof Error ? err.message : String(err)}` }] });
      continue;
    }
    const parsed = parseSettings(text, 'json');
    if (!parsed.ok) {
      out.read.push({ path, scope, ok: false, rules: 0, hooks: 0, problems: parsed.errors });
      continue;
    }
    const p = parsed.settings.permissions;
    const rules = (p?.allow?.length ?? 0) + (p?.ask?.length ?? 0) + (p?.deny?.length ?? 0);
    const hooks = Object.values(parsed.settings.hooks ?? {}).reduce((n, groups) => n + (groups?.length ?? 0), 0);
    out.read.push({ path, scope, ok: true, rules, hooks, problems: parsed.warnings });
    out.scopes.push({ source: scope, settings: parsed.settings });
  }
  return out;
}
