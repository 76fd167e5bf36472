/**
 * The page's state as `App.svelte` builds it (`createPageState`), on lesson 1 with in-memory
 * stores and no browser storage: for unit tests of the page's wiring. The test file stubs
 * `localStorage` itself (`stubLocalStorage`), which puts it in the isolated project.
 */
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import { firstBuiltinDoc } from '../../src/scenarios/library/first.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { MemoryTrustStore } from '../../src/storage/memory/trust-store.ts';
import { InMemoryProgressStore } from '../../src/storage/memory/progress-store.ts';
import { MemoryUserScopeStore } from '../../src/storage/memory/user-scope-store.ts';
import { createPageState, type PageState } from '../../src/ui/state/page-state.svelte.ts';

export function memoryPageState(): { page: PageState; store: MemorySessionStore } {
  const store = new MemorySessionStore({ clock: new FakeClock(1000), ids: new SequentialIds() });
  const page = createPageState({
    docs: [firstBuiltinDoc],
    hash: '',
    trustStore: new MemoryTrustStore(),
    sessionStore: store,
    progressStore: new InMemoryProgressStore(),
    userScopeStore: new MemoryUserScopeStore(),
    storage: null,
  });
  return { page, store };
}
