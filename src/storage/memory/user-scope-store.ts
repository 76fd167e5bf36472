/** The user-scope store in memory (tests, headless): the same checks as the IndexedDB one. */
import { damagedUserScope, type StoredUserScope, type UserScopeRead, type UserScopeStore } from '../user-scope.ts';
import { parseUserScope } from '../user-scope-schema.ts';
import { loadDocumentEngines } from '../../harness/util/index.ts';

export class MemoryUserScopeStore implements UserScopeStore {
  /** What is stored, as stored (a test may put a damaged value here). */
  raw: unknown = undefined;

  async get(): Promise<UserScopeRead> {
    if (this.raw === undefined) return { scope: null };
    await loadDocumentEngines();
    const parsed = parseUserScope(this.raw);
    return typeof parsed === 'string' ? { scope: null, problem: damagedUserScope(parsed) } : { scope: parsed };
  }

  async put(scope: StoredUserScope): Promise<void> {
    await loadDocumentEngines();
    const parsed = parseUserScope(scope);
    if (typeof parsed === 'string') throw new Error(`Not user-scope settings: ${parsed}`);
    this.raw = structuredClone(parsed);
  }

  async clear(): Promise<void> {
    this.raw = undefined;
  }
}
