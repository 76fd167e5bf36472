/**
 * The imported user scope, kept in this browser: one contract for the IndexedDB store (under
 * fake-indexeddb) and its in-memory twin; a damaged record is quarantined and not applied; the
 * page's state applies it to every run, with what can act only once this content is trusted.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { applyTrust } from '../../src/harness/trust/trust.ts';
import { USER_SCOPE, openHarnessDb } from '../../src/storage/idb/db.ts';
import { IdbUserScopeStore } from '../../src/storage/idb/user-scope-store.ts';
import { MemoryTrustStore } from '../../src/storage/memory/trust-store.ts';
import { MemoryUserScopeStore } from '../../src/storage/memory/user-scope-store.ts';
import { Quarantine } from '../../src/storage/quarantine.ts';
import type { StoredUserScope, UserScopeStore } from '../../src/storage/user-scope.ts';
import { UserScopeState, type UserScopeTarget } from '../../src/ui/workbench/user-scope.svelte.ts';

const scope: StoredUserScope = {
  id: 'user',
  file: '~/.claude/settings.json',
  settings: { permissions: { allow: ['Bash(git status)'], deny: ['Bash(rm *)'] }, hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'exit 0' }] }] } },
  savedAt: 1,
  broughtBy: 'fix-a-bug-claude',
};

let n = 0;
const implementations: [string, () => UserScopeStore][] = [
  ['memory', () => new MemoryUserScopeStore()],
  ['indexeddb', () => new IdbUserScopeStore({ name: `user-scope-${++n}` })],
];

describe.each(implementations)('UserScopeStore contract: %s', (_name, make) => {
  it('keeps one scope, replaces it, and forgets it on clear', async () => {
    const s = make();
    expect(await s.get()).toEqual({ scope: null });
    await s.put(scope);
    expect(await s.get()).toEqual({ scope });
    await s.put({ ...scope, file: 'settings.json', savedAt: 2 });
    expect((await s.get()).scope?.file).toBe('settings.json');
    await s.clear();
    expect(await s.get()).toEqual({ scope: null });
  });

  it('refuses settings that are not settings', async () => {
    await expect(make().put({ ...scope, settings: { permissions: { allow: ['Bash(('] } } })).rejects.toThrow(/permissions\.allow/);
  });
});

describe('a damaged saved scope', () => {
  it('is quarantined with its raw text and not applied (IndexedDB)', async () => {
    const name = 'user-scope-damaged';
    const db = await openHarnessDb({ name });
    await db.put(USER_SCOPE, { id: 'user', file: '~/.claude/settings.json', settings: { permissions: { defaultMode: 'yolo' } }, savedAt: 1 });
    db.close();
    const quarantine = new Quarantine();
    const got = await new IdbUserScopeStore({ name, quarantine }).get();
    expect(got.scope).toBeNull();
    expect(got.problem).toMatch(/damaged \(settings\.permissions\.defaultMode.*not applied/);
    expect(quarantine.list()).toEqual([expect.objectContaining({ store: USER_SCOPE, key: 'user', raw: expect.stringContaining('yolo') })]);
  });
});

describe('the page\'s user scope', () => {
  const target = (): UserScopeTarget => ({ userSettings: null, userSettingsTrusted: false });

  it('is saved, applies after a "reload", untrusted until trusted; then trusted after a reload too', async () => {
    const store = new MemoryUserScopeStore();
    const trust = new MemoryTrustStore();
    const ctl = target();
    await new UserScopeState(store, trust, ctl).save(scope.file, scope.settings, 'fix-a-bug-claude');
    // A new page: the scope comes back from the store.
    const ctl2 = target();
    const page = new UserScopeState(store, trust, ctl2);
    await page.load();
    expect(ctl2.userSettings).toEqual(scope.settings);
    expect(ctl2.userSettingsTrusted).toBe(false);
    // What a run gets while untrusted: deny and ask rules, no allow rules, no hooks.
    const applied = applyTrust(ctl2.userSettings!, ctl2.userSettingsTrusted);
    expect(applied.permissions?.deny).toEqual(['Bash(rm *)']);
    expect(applied.permissions?.allow ?? []).toEqual([]);
    expect(applied.hooks ?? {}).toEqual({});
    // Its own question, answered for the document in use (trusting a scenario never trusts it: test/security/user-scope-trust.test.ts).
    await page.forDocument('doc-a');
    await page.trust();
    expect(ctl2.userSettingsTrusted).toBe(true);
    const ctl3 = target();
    const reloaded = new UserScopeState(store, trust, ctl3);
    await reloaded.load();
    await reloaded.forDocument('doc-a');
    expect(ctl3.userSettingsTrusted).toBe(true);
  });

  it('clears: no user scope in later runs, nothing after a reload', async () => {
    const store = new MemoryUserScopeStore();
    const ctl = target();
    const page = new UserScopeState(store, new MemoryTrustStore(), ctl);
    await page.save(scope.file, scope.settings);
    await page.clear();
    expect(ctl.userSettings).toBeNull();
    const again = target();
    await new UserScopeState(store, new MemoryTrustStore(), again).load();
    expect(again.userSettings).toBeNull();
  });

  it('a damaged saved scope says so and applies nothing', async () => {
    const store = new MemoryUserScopeStore();
    store.raw = { id: 'user', file: 'x', settings: 'not settings', savedAt: 0 };
    const ctl = target();
    const page = new UserScopeState(store, new MemoryTrustStore(), ctl);
    await page.load();
    expect(ctl.userSettings).toBeNull();
    expect(page.problem).toMatch(/damaged/);
  });
});
