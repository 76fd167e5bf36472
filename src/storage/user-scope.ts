/**
 * The user scope of an imported `~/.claude/`: its `settings.json`, kept in this browser so it
 * applies after a reload, as `~/.claude/settings.json` applies to every project in Claude Code.
 * One record; checked on the way in and out (the settings schema), so a damaged one is reported
 * (quarantined, with its raw text) and not applied, never half-used.
 *
 * Trust is not stored here: what in it can act (hooks, allow rules, modes) applies only once the
 * person trusted this exact content for the document in use (the trust store, keyed by `userScopeTrustKey`).
 */
import { documentKey } from '../harness/trust/light.ts';
import type { StoredUserScope } from './user-scope-schema.ts';

// The schema (zod, and the settings schema with yaml and re2js behind it) lives in
// user-scope-schema.ts, so the first screen, which only holds a store, does not load it.
export type { StoredUserScope };

/** `null`: none saved; `problem`: the saved one is damaged (quarantined) and not applied. */
export type UserScopeRead = { scope: StoredUserScope | null; problem?: string };

export interface UserScopeStore {
  get(): Promise<UserScopeRead>;
  /** Replaces the saved scope. Rejects a record that does not fit the schema. */
  put(scope: StoredUserScope): Promise<void>;
  clear(): Promise<void>;
}

/**
 * The trust key of a user scope's content *for one document* (`documentTrustKey` of the run
 * controller): trusting a user scope while one scenario is open does not let it act in another, and
 * trusting a document never trusts a user scope — each is its own question. The same settings
 * trusted for the same document stay trusted after a reload.
 */
export function userScopeTrustKey(settings: StoredUserScope['settings'], forDocument: string): Promise<string> {
  return documentKey({ userScope: settings, forDocument });
}

export const damagedUserScope = (problem: string) =>
  `The user-scope settings saved in this browser are damaged (${problem}), so they are not applied. Export the raw record from the damaged-records list, then clear it or import your ~/.claude folder again.`;
