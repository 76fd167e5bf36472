/**
 * At run start, like Claude Code, read the project's `.claude/settings.json` (project scope) and
 * `.claude/settings.local.json` (local scope) from the sandbox itself, so a scenario, a Files
 * panel edit, an imported `.claude/` and the headless runner's `--dir` all behave alike. A file
 * with mistakes is reported with its lines and still applies what it can, failing closed
 * (`settings/fail-closed.ts`): Claude Code drops it whole, deny rules included; we never do.
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
    // A file with mistakes still contributes what it can, failing closed: its deny rules never vanish with them.
    const settings = parsed.ok ? parsed.settings : parsed.fallback;
    const problems = parsed.ok ? parsed.warnings : [...parsed.errors, ...parsed.warnings, ...parsed.fallbackNotes.map((message) => ({ line: 1, column: 1, message }))];
    const p = settings.permissions;
    const rules = (p?.allow?.length ?? 0) + (p?.ask?.length ?? 0) + (p?.deny?.length ?? 0) + (settings.always_deny?.length ?? 0) + (settings.ask_user?.length ?? 0);
    const hooks = Object.values(settings.hooks ?? {}).reduce((n, groups) => n + (groups?.length ?? 0), 0);
    out.read.push({ path, scope, ok: parsed.ok, rules, hooks, problems });
    out.scopes.push({ source: scope, settings });
  }
  return out;
}
