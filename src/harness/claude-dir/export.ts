/**
 * The current configuration as a `.claude/` folder Claude Code would accept: the scenario's
 * settings folded into the project's `.claude/settings.json` (they rank together), the local
 * file as it is, and the sandbox's CLAUDE.md files, skills, agents, hook scripts and `.mcp.json`.
 *
 * Only what Claude Code understands goes into settings.json: the playground's own keys (seed 003's
 * YAML tiers, `type: "js"` hooks) are left out and listed in `leftOut`. No key or secret is ever
 * part of settings here (the API key lives in the page's model settings, never in these files).
 */
import { zipSync, strToU8 } from 'fflate';
import type { Settings } from '../settings/schema.ts';
import { classifyPath, LOCAL_SETTINGS, PROJECT_SETTINGS } from './paths.ts';

export const SETTINGS_SCHEMA_URL = 'https://json.schemastore.org/claude-code-settings.json';

export type ClaudeDirExport = { files: Record<string, string>; leftOut: string[] };

const OWN_KEYS = ['always_deny', 'always_allow', 'ask_user', 'agentTools'] as const;

/** `settings` with only Claude Code's keys; what was dropped goes to `leftOut`. */
function claudeCodeSettings(settings: Settings, file: string, leftOut: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { $schema: SETTINGS_SCHEMA_URL };
  for (const [k, v] of Object.entries(settings)) {
    if (k === '$schema') continue;
    if ((OWN_KEYS as readonly string[]).includes(k)) {
      leftOut.push(`${file}: "${k}" is the playground's own setting, not Claude Code's`);
      continue;
    }
    if (k === 'hooks') {
      const hooks: Record<string, unknown[]> = {};
      for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
        for (const g of groups ?? []) {
          const commands = g.hooks.filter((h) => h.type === 'command');
          if (commands.length < g.hooks.length) leftOut.push(`${file}: ${g.hooks.length - commands.length} ${event} JS hook(s) (they run only in the playground)`);
          if (commands.length) (hooks[event] ??= []).push({ ...g, hooks: commands });
        }
      }
      if (Object.keys(hooks).length) out.hooks = hooks;
      continue;
    }
    out[k] = v;
  }
  return out;
}

const uniq = <T>(xs: readonly T[]) => [...new Set(xs)];

/** Project settings and the scenario's as one document; the project file's mode wins (it ranks above). */
export function foldSettings(project: Settings, scenario: Settings): Settings {
  const p = project.permissions ?? {};
  const s = scenario.permissions ?? {};
  const permissions: NonNullable<Settings['permissions']> = {};
  for (const key of ['allow', 'ask', 'deny', 'additionalDirectories'] as const) {
    const v = uniq([...(p[key] ?? []), ...(s[key] ?? [])]);
    if (v.length) permissions[key] = v;
  }
  const mode = p.defaultMode ?? s.defaultMode;
  if (mode) permissions.defaultMode = mode;
  const disable = p.disableBypassPermissionsMode ?? s.disableBypassPermissionsMode;
  if (disable) permissions.disableBypassPermissionsMode = disable;
  const hooks: Record<string, unknown[]> = {};
  for (const src of [project.hooks ?? {}, scenario.hooks ?? {}]) {
    for (const [event, groups] of Object.entries(src)) for (const g of groups ?? []) (hooks[event] ??= []).push(g);
  }
  return {
    ...scenario,
    ...project,
    ...(Object.keys(permissions).length ? { permissions } : {}),
    ...(Object.keys(hooks).length ? { hooks: hooks as Settings['hooks'] } : {}),
  };
}

export type ExportInput = {
  /** The scenario's (or the settings editor's) settings. */
  scenarioSettings: Settings;
  /** Parsed `.claude/settings.json` / `.claude/settings.local.json` of the sandbox, when present and valid. */
  project?: Settings;
  local?: Settings;
  /** The sandbox files, project-relative (CLAUDE.md, .claude/…, .mcp.json are picked out). */
  files: Readonly<Record<string, string>>;
};

export function exportClaudeDir(input: ExportInput): ClaudeDirExport {
  const leftOut: string[] = [];
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(input.files)) {
    if (path === PROJECT_SETTINGS || path === LOCAL_SETTINGS) continue;
    if (classifyPath(path).kind !== 'other') files[path] = text;
  }
  const project = foldSettings(input.project ?? {}, input.scenarioSettings);
  files[PROJECT_SETTINGS] = `${JSON.stringify(claudeCodeSettings(project, PROJECT_SETTINGS, leftOut), null, 2)}\n`;
  if (input.local) files[LOCAL_SETTINGS] = `${JSON.stringify(claudeCodeSettings(input.local, LOCAL_SETTINGS, leftOut), null, 2)}\n`;
  return { files, leftOut };
}

/** The files as a zip (fixed timestamps, so the same configuration gives the same bytes). */
export function zipFiles(files: Readonly<Record<string, string>>): Uint8Array {
  const tree: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const path of Object.keys(files).sort()) tree[path] = [strToU8(files[path]!), { mtime: new Date('2026-01-01T00:00:00Z') }];
  return zipSync(tree, { level: 6 });
}
