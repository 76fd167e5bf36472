/**
 * The browser's `UserScopeStore`: one record (`id: 'user'`) in the `user_scope` object store of
 * the app's database (`db.ts`). A damaged record is quarantined with its raw text and not applied.
 */
import type { IDBPDatabase } from 'idb';
import { rawText, type Quarantine } from '../quarantine.ts';
import { damagedUserScope, type StoredUserScope, type UserScopeRead, type UserScopeStore } from '../user-scope.ts';
import { USER_SCOPE, reusableConnection, type OpenOptions } from './db.ts';
import { loadDocumentEngines } from '../../harness/util/index.ts';

/**
 * The schema check, loaded on the first read or write, with the engines its tier patterns are
 * checked by (`harness/util/engines.ts`): the first paint needs none of them.
 */
const loadParse = () => Promise.all([import('../user-scope-schema.ts'), loadDocumentEngines()]).then(([m]) => m.parseUserScope);

export type IdbUserScopeStoreOptions = Omit<OpenOptions, 'onClose'> & { quarantine?: Quarantine };

export class IdbUserScopeStore implements UserScopeStore {
  private readonly db: () => Promise<IDBPDatabase>;

  constructor(private readonly opts: IdbUserScopeStoreOptions = {}) {
    const { quarantine: _q, ...open } = opts;
    this.db = reusableConnection(open);
  }

  async get(): Promise<UserScopeRead> {
    const raw: unknown = await (await this.db()).get(USER_SCOPE, 'user');
    if (raw === undefined) return { scope: null };
    const parsed = (await loadParse())(raw);
    if (typeof parsed !== 'string') return { scope: parsed };
    const problem = damagedUserScope(parsed);
    this.opts.quarantine?.add({ store: USER_SCOPE, key: 'user', problem, raw: rawText(raw) });
    return { scope: null, problem };
  }

  async put(scope: StoredUserScope): Promise<void> {
    const parsed = (await loadParse())(scope);
    if (typeof parsed === 'string') throw new Error(`Not user-scope settings: ${parsed}`);
    await (await this.db()).put(USER_SCOPE, parsed);
  }

  async clear(): Promise<void> {
    await (await this.db()).delete(USER_SCOPE, 'user');
  }
}
