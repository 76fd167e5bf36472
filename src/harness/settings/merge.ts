/**
 * Settings scopes merged into what the permission engine and hooks use. Precedence:
 * managed > cli > local > project > user (other labels, e.g. `scenario`, rank with project).
 * Rules of every scope are kept — concatenated in precedence order, each with its source, so the
 * UI can say which rule decided; since deny → ask → allow is evaluated across all of them, a deny
 * in any scope beats an allow in any other. The mode comes from the highest scope that sets one.
 * Hooks of every scope run (concatenated per event).
 */
import type { HooksConfig } from '../hooks/config.ts';
import { parseRule } from '../permissions/rules.ts';
import type { PermissionContext, PermissionMode, RuleBehavior, SourcedRule } from '../permissions/types.ts';
import type { Settings, YamlTierRule } from './schema.ts';

export const SCOPE_ORDER = ['managed', 'cli', 'local', 'project', 'user'] as const;
export type SettingsScope = (typeof SCOPE_ORDER)[number];

export type ScopedSettings = { source: SettingsScope | (string & {}); settings: Settings };

export type MergedSettings = {
  rules: SourcedRule[];
  mode: PermissionMode;
  /** The scope the mode came from (`default` when none set one). */
  modeSource: string;
  /** Why a mode some scope asked for is not in force (a project's `bypassPermissions`, a disabled bypass); empty when none was dropped. */
  modeNotes: string[];
  /** Set when some scope says `disableBypassPermissionsMode: "disable"`: the scope that did. */
  bypassDisabledBy?: string;
  /** Directories outside the working directory that reads may reach without asking, from every scope. */
  additionalDirectories: string[];
  hooks: HooksConfig;
  /** Set when some scope says `disableAllHooks: true`: the scope that did. */
  hooksDisabledBy?: string;
  /** `model` from the highest scope that sets one (a run uses it when nobody chose another). */
  model?: { id: string; source: string };
  /** `env` of every scope, a higher scope's value winning: the environment of the run's commands. */
  env: Record<string, string>;
  /** Which scope each hook group came from, per event, parallel to `hooks[event]`. */
  hookSources: Partial<Record<keyof HooksConfig, string[]>>;
};

function rank(source: string): number {
  const i = (SCOPE_ORDER as readonly string[]).indexOf(source);
  return i === -1 ? SCOPE_ORDER.indexOf('project') + 0.5 : i;
}

const TIERS: [key: 'always_deny' | 'ask_user' | 'always_allow', behavior: RuleBehavior][] = [
  ['always_deny', 'deny'],
  ['ask_user', 'ask'],
  ['always_allow', 'allow'],
];

function tierRule(entry: YamlTierRule, key: string): SourcedRule['rule'] {
  const e = typeof entry === 'string' ? { pattern: entry } : entry;
  return {
    kind: 'regex',
    pattern: e.pattern,
    ...(e.tool !== undefined ? { tool: e.tool } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    text: `${key}: /${e.pattern}/${e.tool ? ` (tools /${e.tool}/)` : ''}`,
  };
}

/** The rules one settings document contributes, tagged with `source`. Invalid rule texts are skipped (validation reports them). */
export function settingsRules(settings: Settings, source: string): SourcedRule[] {
  const out: SourcedRule[] = [];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    for (const text of settings.permissions?.[behavior] ?? []) {
      const parsed = parseRule(text);
      if (parsed.ok) out.push({ behavior, source, rule: parsed.rule });
    }
  }
  for (const [key, behavior] of TIERS) {
    for (const entry of settings[key] ?? []) out.push({ behavior, source, rule: tierRule(entry, key) });
  }
  return out;
}

/**
 * Scopes that may turn on `bypassPermissions` as Claude Code documents it: the user's own settings
 * and the CLI (managed policy too). A project's, a local file's or a scenario's cannot — a
 * repository (or a link) must not switch every prompt off for whoever opens it.
 */
export const BYPASS_SCOPES: readonly string[] = ['managed', 'cli', 'user'];

export function mergeSettings(scopes: readonly ScopedSettings[]): MergedSettings {
  const ordered = [...scopes].sort((a, b) => rank(a.source) - rank(b.source));
  const rules = ordered.flatMap((s) => settingsRules(s.settings, s.source));
  const modeNotes: string[] = [];
  const disabler = ordered.find((s) => s.settings.permissions?.disableBypassPermissionsMode === 'disable');
  const withMode = ordered.find((s) => {
    const m = s.settings.permissions?.defaultMode;
    if (m === undefined) return false;
    if (m !== 'bypassPermissions') return true;
    if (disabler) modeNotes.push(bypassDisabledNote(`${s.source} settings`, disabler.source));
    else if (!BYPASS_SCOPES.includes(s.source)) {
      modeNotes.push(`bypassPermissions from ${s.source} settings is ignored: only user settings or a mode you choose yourself can turn it on.`);
    } else return true;
    return false;
  });
  const hooks: Record<string, unknown[]> = {};
  const hookSources: Record<string, string[]> = {};
  // disableAllHooks: true turns every hook off; managed hooks only when managed settings say it (as in Claude Code).
  const hooksOff = ordered.find((s) => s.settings.disableAllHooks === true);
  for (const s of ordered) {
    if (hooksOff && (hooksOff.source === 'managed' || s.source !== 'managed')) continue;
    for (const [event, groups] of Object.entries(s.settings.hooks ?? {})) {
      for (const g of groups ?? []) {
        (hooks[event] ??= []).push(g);
        (hookSources[event] ??= []).push(s.source);
      }
    }
  }
  const withModel = ordered.find((s) => s.settings.model !== undefined);
  return {
    rules,
    ...(withModel?.settings.model ? { model: { id: withModel.settings.model, source: withModel.source } } : {}),
    env: Object.assign({}, ...[...ordered].reverse().map((s) => s.settings.env ?? {})) as Record<string, string>,
    mode: withMode?.settings.permissions?.defaultMode ?? 'default',
    modeSource: withMode?.source ?? 'default',
    modeNotes,
    ...(disabler ? { bypassDisabledBy: disabler.source } : {}),
    ...(hooksOff ? { hooksDisabledBy: hooksOff.source } : {}),
    additionalDirectories: [...new Set(ordered.flatMap((s) => s.settings.permissions?.additionalDirectories ?? []))],
    hooks: hooks as HooksConfig,
    hookSources: hookSources as MergedSettings['hookSources'],
  };
}

function bypassDisabledNote(asker: string, disabler: string): string {
  return `bypassPermissions (asked for by ${asker}) is disabled by disableBypassPermissionsMode in ${disabler} settings; the run uses the next mode instead.`;
}

/**
 * The mode in force when a person (the Mode menu, the runner's `--permission-mode`) asks for
 * `requested`: theirs, unless it is `bypassPermissions` and some scope disabled it — then the
 * settings' own mode, with a note saying why.
 */
export function resolveMode(merged: MergedSettings, requested?: PermissionMode): { mode: PermissionMode; note?: string } {
  if (requested === undefined) return { mode: merged.mode };
  if (requested === 'bypassPermissions' && merged.bypassDisabledBy !== undefined) {
    return { mode: merged.mode, note: bypassDisabledNote('the mode you chose', merged.bypassDisabledBy) };
  }
  return { mode: requested };
}

/** The permission engine's view of merged settings, optionally with a mode chosen in the UI. */
export function permissionContextOf(merged: MergedSettings, workdir: string, opts: { mode?: PermissionMode; cwd?: string } = {}): PermissionContext {
  return {
    mode: resolveMode(merged, opts.mode).mode,
    rules: merged.rules,
    workdir,
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    ...(merged.additionalDirectories.length > 0 ? { additionalDirectories: merged.additionalDirectories } : {}),
  };
}
