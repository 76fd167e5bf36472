/**
 * The user scope in the page: the `~/.claude/settings.json` of an import, kept in IndexedDB
 * (`storage/user-scope.ts`) so it applies after a reload and to every scenario, as the user
 * scope does in Claude Code — until the person clears it in the Workbench tab.
 *
 * Trust: its deny and ask rules always apply; what can act (hooks, allow rules, modes) only once
 * this exact content is trusted *for the document in use*, with the panel's own Trust button.
 * Trusting the document that brought it does not trust it (that question never showed it), and a
 * scope trusted while one scenario is open does not act in another (`forDocument`). The trust store
 * keeps the hash of both, so it stays trusted across reloads for that document.
 */
import type { TrustStore } from '../../harness/ports.ts';
import type { Settings } from '../../harness/settings/index.ts';
import { userScopeTrustKey, type StoredUserScope, type UserScopeStore } from '../../storage/user-scope.ts';

/** What the run controller reads (it knows nothing of storage). */
export type UserScopeTarget = { userSettings: Settings | null; userSettingsTrusted: boolean };

const errText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class UserScopeState {
  scope = $state.raw<StoredUserScope | null>(null);
  trusted = $state(false);
  /** A damaged saved scope, or a storage failure, in words. */
  problem = $state<string | null>(null);
  /** The trust key of the document in use ('' while unknown: nothing of the scope acts then). */
  private document = '';
  private epoch = 0;

  constructor(
    private readonly store: UserScopeStore,
    private readonly trustStore: TrustStore,
    private readonly target: UserScopeTarget,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads the saved scope (at page start, before a session resumes). Never throws. */
  async load(): Promise<void> {
    try {
      const r = await this.store.get();
      this.problem = r.problem ?? null;
      await this.adopt(r.scope);
    } catch (e) {
      this.problem = `The saved user-scope settings could not be read: ${errText(e)}.`;
      await this.adopt(null);
    }
  }

  /** Saves the scope of an import (replacing the one saved before); `broughtBy`: the imported scenario's id. */
  async save(file: string, settings: Settings, broughtBy?: string): Promise<void> {
    const scope: StoredUserScope = { id: 'user', file, settings, savedAt: this.now(), ...(broughtBy ? { broughtBy } : {}) };
    // In force at once (a trust answer may come before the write lands), untrusted until known.
    this.scope = scope;
    this.trusted = false;
    this.apply();
    try {
      await this.store.put(scope);
      this.problem = null;
    } catch (e) {
      this.problem = `The user-scope settings apply in this tab but could not be saved: ${errText(e)}.`;
    }
    await this.adopt(scope);
  }

  /** Trust what this scope can do (its hooks, allow rules, modes) for the document in use. */
  async trust(): Promise<void> {
    const scope = this.scope;
    const doc = this.document;
    if (!scope || !doc) return;
    await this.trustStore.trust(await userScopeTrustKey(scope.settings, doc), `user-scope settings (${scope.file}) for one scenario`).catch(() => {});
    if (this.scope !== scope || this.document !== doc) return;
    this.trusted = true;
    this.apply();
  }

  /** Another document is in use (`key`: its trust key; '' while unknown): untrusted at once, then as stored for it. */
  async forDocument(key: string): Promise<void> {
    if (key === this.document) return;
    this.document = key;
    await this.adopt(this.scope);
  }

  /** Forgets the saved scope: runs from now on have no user scope. */
  async clear(): Promise<void> {
    try {
      await this.store.clear();
      this.problem = null;
    } catch (e) {
      this.problem = `The saved user-scope settings could not be cleared: ${errText(e)}.`;
      return;
    }
    await this.adopt(null);
  }

  private async adopt(scope: StoredUserScope | null): Promise<void> {
    const epoch = ++this.epoch;
    const doc = this.document;
    this.scope = scope;
    // Untrusted until the store says otherwise for this document: a run never starts on a stale yes.
    this.trusted = false;
    this.apply();
    const trusted = scope && doc ? await this.trustStore.isTrusted(await userScopeTrustKey(scope.settings, doc)).catch(() => false) : false;
    if (epoch !== this.epoch) return;
    this.trusted = trusted;
    this.apply();
  }

  private apply(): void {
    this.target.userSettings = this.scope?.settings ?? null;
    this.target.userSettingsTrusted = this.trusted;
  }
}
