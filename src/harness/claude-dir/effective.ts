/**
 * The effective configuration of several settings scopes, one row per value with the scope that
 * decided it: what the import view shows ("each value shows its source") and what the round-trip
 * test compares. Built on `mergeSettings`, so it is exactly what a run uses.
 */
import { mergeSettings, type ScopedSettings } from '../settings/merge.ts';

export type EffectiveRow = {
  /** `permissions.deny`, `permissions.defaultMode`, `hooks.PreToolUse`, … */
  key: string;
  value: string;
  source: string;
  /** Set when a higher scope's value replaced this one (the mode): the scope that won. */
  overriddenBy?: string;
};

export function effectiveRows(scopes: readonly ScopedSettings[]): EffectiveRow[] {
  const merged = mergeSettings(scopes);
  const rows: EffectiveRow[] = [];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    for (const r of merged.rules.filter((x) => x.behavior === behavior)) rows.push({ key: `permissions.${behavior}`, value: r.rule.text, source: r.source });
  }
  // Every scope that set a mode is shown; the ones below the winner say who overrode them.
  for (const s of scopes) {
    const m = s.settings.permissions?.defaultMode;
    if (m === undefined) continue;
    const won = s.source === merged.modeSource && m === merged.mode;
    rows.push({ key: 'permissions.defaultMode', value: m, source: s.source, ...(won ? {} : { overriddenBy: merged.modeSource }) });
  }
  for (const dir of merged.additionalDirectories) {
    const from = scopes.find((s) => s.settings.permissions?.additionalDirectories?.includes(dir));
    rows.push({ key: 'permissions.additionalDirectories', value: dir, source: from?.source ?? '?' });
  }
  for (const [event, groups] of Object.entries(merged.hooks)) {
    (groups ?? []).forEach((g, i) => {
      const what = g.hooks.map((h) => (h.type === 'command' ? h.command : h.type === 'prompt' ? `prompt: ${h.prompt}` : h.type === 'http' ? `POST ${h.url}` : `js ${h.name ?? 'hook'}`)).join('; ');
      rows.push({ key: `hooks.${event}`, value: `${g.matcher ? `[${g.matcher}] ` : ''}${what}`, source: merged.hookSources[event as keyof typeof merged.hookSources]?.[i] ?? '?' });
    });
  }
  return rows;
}
