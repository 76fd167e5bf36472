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
  hooks: HooksConfig;
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

export function mergeSettings(scopes: readonly ScopedSettings[]): MergedSettings {
  const ordered = [...scopes].sort((a, b) => rank(a.source) - rank(b.source));
  const rules = ordered.flatMap((s) => settingsRules(s.settings, s.source));
  const withMode = ordered.find((s) => s.settings.permissions?.defaultMode !== undefined);
  const hooks: Record<string, unknown[]> = {};
  const hookSources: Record<string, string[]> = {};
  for (const s of ordered) {
    for (const [event, groups] of Object.entries(s.settings.hooks ?? {})) {
      for (const g of groups ?? []) {
        (hooks[event] ??= []).push(g);
        (hookSources[event] ??= []).push(s.source);
      }
    }
  }
  return {
    rules,
    mode: withMode?.settings.permissions?.defaultMode ?? 'default',
    modeSource: withMode?.source ?? 'default',
    hooks: hooks as HooksConfig,
    hookSources: hookSources as MergedSettings['hookSources'],
  };
}

/** The permission engine's view of merged settings, optionally with a mode chosen in the UI. */
export function permissionContextOf(merged: MergedSettings, workdir: string, opts: { mode?: PermissionMode; cwd?: string } = {}): PermissionContext {
  return { mode: opts.mode ?? merged.mode, rules: merged.rules, workdir, ...(opts.cwd ? { cwd: opts.cwd } : {}) };
}
