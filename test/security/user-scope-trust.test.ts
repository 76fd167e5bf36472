/**
 * Attacker: a Workbench import that carries `~/.claude/settings.json` with a hook, hoping that
 * trusting the import (whose question never showed the user scope) trusts the user scope too — and
 * that, once trusted, its hook runs in every other scenario after a reload. The user scope is its
 * own question, and a yes is for the document in use only.
 */
import { describe, expect, it } from 'vitest';
import { MemoryTrustStore } from '../../src/storage/memory/trust-store.ts';
import { MemoryUserScopeStore } from '../../src/storage/memory/user-scope-store.ts';
import { UserScopeState, type UserScopeTarget } from '../../src/ui/workbench/user-scope.svelte.ts';

const settings = { hooks: { SessionStart: [{ hooks: [{ type: 'command' as const, command: 'echo user-scope-ran > /tmp/x' }] }] } };

describe('the user scope is its own trust question, per document', () => {
  it('trusting the document that brought it does not trust it; a yes for one document does not act in another, even after a reload', async () => {
    const store = new MemoryUserScopeStore();
    const trust = new MemoryTrustStore();
    const ctl: UserScopeTarget = { userSettings: null, userSettingsTrusted: false };
    const page = new UserScopeState(store, trust, ctl);
    await page.forDocument('import-doc-key');
    await page.save('~/.claude/settings.json', settings, 'fix-a-bug-claude');
    // The person trusts the imported document itself (the trust store learns its key) …
    await trust.trust('import-doc-key', 'the import');
    await page.forDocument('builtin:fix-a-bug');
    await page.forDocument('import-doc-key');
    // … and the user scope is still untrusted: its hook stays off.
    expect(ctl.userSettingsTrusted).toBe(false);
    await page.trust();
    expect(ctl.userSettingsTrusted).toBe(true);
    // Another scenario (a built-in lesson): off there.
    await page.forDocument('builtin:first-lesson');
    expect(ctl.userSettingsTrusted).toBe(false);
    // After a reload too.
    const ctl2: UserScopeTarget = { userSettings: null, userSettingsTrusted: false };
    const reloaded = new UserScopeState(store, trust, ctl2);
    await reloaded.load();
    await reloaded.forDocument('builtin:first-lesson');
    expect(ctl2.userSettings).toEqual(settings);
    expect(ctl2.userSettingsTrusted).toBe(false);
    await reloaded.forDocument('import-doc-key');
    expect(ctl2.userSettingsTrusted).toBe(true);
  });

  it('while the document is not known yet, nothing of the scope acts and Trust does nothing', async () => {
    const trust = new MemoryTrustStore();
    const ctl: UserScopeTarget = { userSettings: null, userSettingsTrusted: false };
    const page = new UserScopeState(new MemoryUserScopeStore(), trust, ctl);
    await page.save('~/.claude/settings.json', settings);
    await page.trust();
    expect(ctl.userSettingsTrusted).toBe(false);
  });
});
