/**
 * What a settings document that does not fully parse still contributes, failing closed: every
 * part that is valid loads, and a part that is not is left out only when leaving it out cannot
 * loosen anything. A deny or ask rule that cannot be read becomes a deny/ask of its whole tool
 * (or of every call, when not even the tool can be read); an unreadable allow is dropped (the call
 * asks); a bad `disableBypassPermissionsMode` still disables bypass; a bad mode is `default`. A
 * document that cannot be read at all denies every call until it is fixed.
 */
import { parseRule } from '../permissions/rules.ts';
import { settingsSchema, type Settings } from './schema.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const DROP = Symbol('drop');

export type FailClosed = { settings: Settings; notes: string[] };

const CATCH_ALL = (behavior: 'deny' | 'ask', why: string) => ({ pattern: '.*', reason: `${behavior === 'deny' ? 'denied' : 'asks'}: ${why}` });

/** A document nothing can be read from: every call is denied. */
export function denyEverything(why: string): FailClosed {
  return { settings: { always_deny: [CATCH_ALL('deny', why)] }, notes: [`${why}: every tool call is denied until the file is fixed (its rules fail closed).`] };
}

/** Only what restricts: deny and ask rules and tiers (for a document read by a laxer parser than its own format's). */
export function restrictionsOnly(value: Obj): Obj {
  const p = isObj(value.permissions) ? value.permissions : {};
  return {
    permissions: { ...(p.deny !== undefined ? { deny: p.deny } : {}), ...(p.ask !== undefined ? { ask: p.ask } : {}) },
    ...(value.always_deny !== undefined ? { always_deny: value.always_deny } : {}),
    ...(value.ask_user !== undefined ? { ask_user: value.ask_user } : {}),
  };
}

export function failClosed(input: Obj): FailClosed {
  const value = structuredClone(input);
  const notes: string[] = [];
  for (let round = 0; round < 10; round++) {
    const r = settingsSchema.safeParse(value);
    if (r.success) return { settings: r.data, notes };
    for (const issue of r.error.issues) applyIssue(value, issue.path.map((k) => (typeof k === 'symbol' ? String(k) : k)), notes);
    compact(value);
  }
  return denyEverything('the settings could not be read');
}

function catchAll(value: Obj, behavior: 'deny' | 'ask', why: string, notes: string[]): void {
  const key = behavior === 'deny' ? 'always_deny' : 'ask_user';
  const list = Array.isArray(value[key]) ? (value[key] as unknown[]) : (value[key] = []) as unknown[];
  if (!list.some((e) => isObj(e) && e.pattern === '.*')) list.push(CATCH_ALL(behavior, why));
  notes.push(`${why}: every tool call ${behavior === 'deny' ? 'is denied' : 'asks'} until it is fixed.`);
}

function applyIssue(value: Obj, path: (string | number)[], notes: string[]): void {
  const [top, key, index] = path;
  if (top === undefined) {
    Object.assign(value, denyEverything('the settings are not an object').settings);
    return;
  }
  if (top === 'permissions') {
    const p = value.permissions;
    if (!isObj(p) || key === undefined) {
      delete value.permissions;
      catchAll(value, 'deny', 'permissions could not be read', notes);
      return;
    }
    if (key === 'allow' || key === 'ask' || key === 'deny') {
      const list = p[key];
      if (!Array.isArray(list) || typeof index !== 'number') {
        delete p[key];
        if (key === 'allow') notes.push('permissions.allow could not be read: left out (those calls ask).');
        else catchAll(value, key, `permissions.${key} could not be read`, notes);
        return;
      }
      const raw = list[index];
      list[index] = DROP;
      if (key === 'allow') {
        notes.push(`allow rule ${JSON.stringify(raw)} could not be read: left out (the call asks).`);
        return;
      }
      const name = typeof raw === 'string' ? /^\s*([A-Za-z_][A-Za-z0-9_-]*)/.exec(raw)?.[1] : undefined;
      if (name !== undefined && parseRule(name).ok) {
        list[index] = name;
        notes.push(`${key} rule ${JSON.stringify(raw)} could not be read: it ${key === 'deny' ? 'denies' : 'asks for'} every ${name} call instead.`);
      } else catchAll(value, key, `${key} rule ${JSON.stringify(raw)} could not be read`, notes);
      return;
    }
    if (key === 'disableBypassPermissionsMode') {
      p[key] = 'disable';
      notes.push('permissions.disableBypassPermissionsMode could not be read: bypass is disabled.');
    } else if (key === 'defaultMode') {
      p[key] = 'default';
      notes.push('permissions.defaultMode could not be read: this file sets default mode (asks).');
    } else {
      delete p[key];
      notes.push(`permissions.${String(key)} could not be read: left out.`);
    }
    return;
  }
  if (top === 'always_deny' || top === 'ask_user' || top === 'always_allow') {
    const list = value[top];
    if (Array.isArray(list) && typeof key === 'number') list[key] = DROP;
    else delete value[top];
    if (top === 'always_allow') notes.push(`an ${top} entry could not be read: left out (the call asks).`);
    else catchAll(value, top === 'always_deny' ? 'deny' : 'ask', `an ${top} entry could not be read`, notes);
    return;
  }
  if (top === 'hooks') {
    const hooks = value.hooks;
    const groups = isObj(hooks) && typeof key === 'string' ? hooks[key] : undefined;
    const group = Array.isArray(groups) && typeof index === 'number' ? groups[index] : undefined;
    const list = isObj(group) ? group.hooks : undefined;
    if (Array.isArray(list) && path[3] === 'hooks' && typeof path[4] === 'number') list[path[4]] = DROP;
    else if (Array.isArray(groups) && typeof index === 'number') groups[index] = DROP;
    else if (isObj(hooks) && typeof key === 'string') delete hooks[key];
    else delete value.hooks;
    notes.push(`a hook at hooks.${path.slice(1).join('.')} could not be read: it does not run.`);
    return;
  }
  delete value[top];
  notes.push(`${String(top)} could not be read: left out.`);
}

/** Removes every dropped array entry, at any depth. */
function compact(v: unknown): void {
  if (Array.isArray(v)) {
    for (let i = v.length - 1; i >= 0; i--) if (v[i] === DROP) v.splice(i, 1);
    v.forEach(compact);
  } else if (isObj(v)) Object.values(v).forEach(compact);
}
