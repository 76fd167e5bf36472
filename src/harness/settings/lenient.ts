/**
 * What Claude Code accepts but this harness does not model, taken out of a settings value before
 * the schema sees it, each with a warning that names it: a file Claude Code loads must load here
 * too, never be rejected whole. Hook events and handler types we do not run ("loaded, not run
 * here"), `defaultMode: "manual"` (Claude Code's alias of `default`), keys we do not use, and
 * unknown keys. Only things whose removal cannot loosen anything are removed here: hooks, modes
 * and settings keys — never a permission rule.
 */
import { CLAUDE_CODE_HOOK_EVENTS, CLAUDE_CODE_HOOK_TYPES, HOOK_EVENTS_FIRED, HOOK_EVENTS_NOT_FIRED, HOOK_TYPES_RUN_HERE } from '../hooks/events.ts';
import { MODE_ALIASES, MODES_NOT_HERE, NOT_USED_KEYS, PERMISSIONS_KEYS, PERMISSIONS_NOT_USED_KEYS, USED_KEYS } from './claude-code-keys.ts';
import type { SettingsWarningAt } from './warnings.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const RUN_EVENTS: readonly string[] = HOOK_EVENTS_FIRED;
const NOT_FIRED: Readonly<Record<string, string | undefined>> = HOOK_EVENTS_NOT_FIRED;
const CC_EVENTS: readonly string[] = CLAUDE_CODE_HOOK_EVENTS;
const CC_TYPES: readonly string[] = CLAUDE_CODE_HOOK_TYPES;

/** A copy of `value` without what we do not model, and a warning per thing taken out. */
export function leniently(value: Obj): { value: Obj; warnings: SettingsWarningAt[] } {
  const out: Obj = { ...value };
  const warnings: SettingsWarningAt[] = [];
  for (const key of Object.keys(value)) {
    if (USED_KEYS.includes(key)) continue;
    if (NOT_USED_KEYS.includes(key)) warnings.push({ path: [key], message: `"${key}" is a Claude Code setting not used here (loaded, has no effect in this playground).` });
    else warnings.push({ path: [key], message: `unknown setting "${key}": not a Claude Code setting this playground knows; ignored.` });
  }
  if (isObj(value.permissions)) out.permissions = permissionsLeniently(value.permissions, warnings);
  if (isObj(value.hooks)) out.hooks = hooksLeniently(value.hooks, warnings);
  return { value: out, warnings };
}

function permissionsLeniently(p: Obj, warnings: SettingsWarningAt[]): Obj {
  const out: Obj = {};
  for (const [key, v] of Object.entries(p)) {
    if (PERMISSIONS_KEYS.includes(key)) out[key] = v;
    else if (PERMISSIONS_NOT_USED_KEYS.includes(key)) warnings.push({ path: ['permissions', key], message: `permissions.${key} is a Claude Code setting not used here (this playground has no auto mode or mode prompt).` });
    else warnings.push({ path: ['permissions', key], message: `unknown permissions key "${key}" (known: ${PERMISSIONS_KEYS.join(', ')}); ignored.` });
  }
  const mode = out.defaultMode;
  if (typeof mode === 'string' && MODE_ALIASES[mode]) out.defaultMode = MODE_ALIASES[mode];
  else if (typeof mode === 'string' && MODES_NOT_HERE.includes(mode)) {
    delete out.defaultMode;
    warnings.push({ path: ['permissions', 'defaultMode'], message: `defaultMode "${mode}" is a Claude Code mode this playground does not have; left out, so the next scope's mode (or default, which asks) applies.` });
  }
  return out;
}

function hooksLeniently(hooks: Obj, warnings: SettingsWarningAt[]): Obj {
  const out: Obj = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!RUN_EVENTS.includes(event)) {
      const near = [...CC_EVENTS, ...RUN_EVENTS].find((e) => e.toLowerCase() === event.toLowerCase() && e !== event);
      warnings.push({
        path: ['hooks', event],
        message: CC_EVENTS.includes(event)
          ? `hooks.${event}: loaded, not run here — this playground does not fire ${event} yet${NOT_FIRED[event] ? ` (${NOT_FIRED[event]})` : ''}, so its hooks never run.`
          : `unknown hook event "${event}"${near ? ` (did you mean "${near}"? names are case-sensitive)` : ''}: its hooks never run.`,
      });
      continue;
    }
    if (!Array.isArray(groups)) {
      out[event] = groups;
      continue;
    }
    out[event] = groups.map((g, gi) => {
      if (!isObj(g) || !Array.isArray(g.hooks)) return g;
      const kept = g.hooks.filter((h, hi) => {
        const type = isObj(h) ? h.type : undefined;
        if (typeof type !== 'string' || HOOK_TYPES_RUN_HERE.includes(type)) {
          // Claude Code runs only command hooks in the background (`hooks/async-hooks.ts`).
          if (isObj(h) && (h.async === true || h.asyncRewake === true) && type !== 'command') {
            warnings.push({ path: ['hooks', event, gi, 'hooks', hi, 'async'], message: `hooks.${event}: "async" applies to command hooks only; this ${String(type)} hook runs and the loop waits for it.` });
          }
          return true;
        }
        warnings.push({
          path: ['hooks', event, gi, 'hooks', hi, 'type'],
          message: CC_TYPES.includes(type)
            ? `hooks.${event}: a "${type}" hook is loaded, not run here (this playground runs ${HOOK_TYPES_RUN_HERE.map((t) => `"${t}"`).join(', ')} hooks).`
            : `hooks.${event}: unknown hook type "${type}" (Claude Code's are ${CC_TYPES.join(', ')}); this hook never runs.`,
        });
        return false;
      });
      return { ...g, hooks: kept };
    });
  }
  return out;
}
