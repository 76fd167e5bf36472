/**
 * The trust gate (lesson of CVE-2025-59536): settings that arrive with a scenario link or an
 * imported file may carry things that act — hooks that run commands, allow rules and permissive
 * modes that skip the prompt. Until the user trusts exactly that content, none of it applies:
 * no hook runs, no allow rule or always_allow tier counts, and a permissive mode falls back to
 * `default`. Deny and ask rules (and restrictive modes) still apply — they only make things safer.
 * Trust is keyed to a hash of the whole document (`document-key.ts`), so a changed link asks again
 * and a link that merely shares another's rules is not pre-trusted.
 *
 * Stricter than Claude Code, on purpose: in a workspace the user has not trusted, Claude Code still
 * applies the project's default mode and runs its hooks. Here an untrusted document keeps only
 * what makes things safer (deny and ask rules, restrictive modes); its hooks, allow rules,
 * permissive modes and additionalDirectories wait for trust — a link is one click from anyone.
 */
import type { HooksConfig } from '../hooks/config.ts';
import type { PermissionMode } from '../permissions/types.ts';
import type { Settings, YamlTierRule } from '../settings/schema.ts';

/** Modes that let calls through without a prompt. `dontAsk` and `plan` are restrictive. */
export const PERMISSIVE_MODES: readonly PermissionMode[] = ['acceptEdits', 'bypassPermissions'];

/** Exactly what trusting a settings document would turn on; shown in the trust dialog. */
export type ActionableContent = {
  hooks: HooksConfig;
  allow: string[];
  alwaysAllow: YamlTierRule[];
  /** The permissive mode it asks for, if any. */
  mode: PermissionMode | null;
  /** Directories outside the project it would let reads reach without asking; present only when it names some. */
  additionalDirectories?: string[];
  /** Custom tools it would register (`name (js)` / `name (shell)`); present only when it defines some. */
  tools?: string[];
};

export function actionableContent(settings: Settings): ActionableContent {
  const mode = settings.permissions?.defaultMode;
  return {
    hooks: settings.hooks ?? {},
    allow: [...(settings.permissions?.allow ?? [])],
    alwaysAllow: [...(settings.always_allow ?? [])],
    mode: mode !== undefined && PERMISSIVE_MODES.includes(mode) ? mode : null,
    // Only when present, so content without it hashes as before (earlier answers stay valid).
    ...(settings.permissions?.additionalDirectories?.length ? { additionalDirectories: [...settings.permissions.additionalDirectories] } : {}),
  };
}

/** Whether there is anything to trust at all (no dialog is needed otherwise). */
export function hasActionableContent(content: ActionableContent): boolean {
  return (
    Object.values(content.hooks).some((groups) => (groups?.length ?? 0) > 0) ||
    content.allow.length > 0 ||
    content.alwaysAllow.length > 0 ||
    content.mode !== null ||
    (content.additionalDirectories?.length ?? 0) > 0 ||
    (content.tools?.length ?? 0) > 0
  );
}

/** JSON with object keys sorted at every level, so equal content always hashes alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON of `content`; WebCrypto, so it works in Node 20 and browsers. */
export async function trustKey(content: ActionableContent): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(content));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The settings that take effect: all of them when trusted; without the actionable parts when not. */
export function applyTrust(settings: Settings, trusted: boolean): Settings {
  if (trusted) return settings;
  // env and model wait for trust too: a document must not set the commands' environment or spend on a model of its choosing.
  const { hooks: _hooks, always_allow: _alwaysAllow, env: _env, model: _model, permissions, ...rest } = settings;
  const out: Settings = { ...rest };
  if (permissions) {
    // additionalDirectories widens where reads go without asking: permissive, so it waits for trust too.
    const { allow: _allow, defaultMode, additionalDirectories: _dirs, ...perms } = permissions;
    out.permissions = { ...perms, ...(defaultMode !== undefined && !PERMISSIVE_MODES.includes(defaultMode) ? { defaultMode } : {}) };
  }
  return out;
}
