/**
 * The app's one IndexedDB database, `harness-playground`, and its schema ladder. Every store of
 * the app lives here so that one version number describes the whole schema: to add a store, add
 * a step to {@link upgrade} and bump {@link DB_VERSION}. Steps only ever add, and each checks
 * before it creates, so any older database (or one a step was interrupted in) reaches the
 * current shape.
 *
 * Opening failures become {@link MemoryStoreError}s with words a person can act on: another tab
 * holding an older version open (`blocked`), a database from a newer build or with a store
 * missing (`corrupt`), no IndexedDB at all (`unavailable`).
 */
import { openDB, type IDBPDatabase } from 'idb';
import { MemoryStoreError } from '../../harness/ports.ts';

export const DB_NAME = 'harness-playground';
/**
 * v1: `memories` (keyPath `id`).
 * v2: `sessions` (keyPath `id`) and `session_events` (keyPath `[sessionId, seq]`), for
 * `session-store.ts`.
 * v3: `course_progress` (keyPath `lessonId`), for `progress-store.ts`.
 * v4: `user_scope` (keyPath `id`), for `user-scope-store.ts`.
 */
export const DB_VERSION = 4;
export const MEMORIES = 'memories';
export const SESSIONS = 'sessions';
/** One record per log entry: `{ sessionId, seq, json, bytes }`; a session's log is one key range. */
export const SESSION_EVENTS = 'session_events';
/** One record per lesson of the course: finished or not, and the answers given. */
export const COURSE_PROGRESS = 'course_progress';
/** One record: the imported `~/.claude/settings.json` (the user scope), kept across reloads. */
export const USER_SCOPE = 'user_scope';

/**
 * Stores every opener checks for. The session stores are checked by `session-store.ts` itself, so
 * a damaged session store never stops memories from working (and the other way round).
 */
const REQUIRED_STORES = [MEMORIES];

function upgrade(db: IDBPDatabase, oldVersion: number): void {
  // v1 — memories. Written as "if missing" rather than "if oldVersion < 1" so a database that
  // lost the store (or got it from nowhere) heals on the next upgrade.
  if (oldVersion < 1 || !db.objectStoreNames.contains(MEMORIES)) {
    if (!db.objectStoreNames.contains(MEMORIES)) db.createObjectStore(MEMORIES, { keyPath: 'id' });
  }
  // v2 — sessions and their logs.
  if (!db.objectStoreNames.contains(SESSIONS)) db.createObjectStore(SESSIONS, { keyPath: 'id' });
  if (!db.objectStoreNames.contains(SESSION_EVENTS)) db.createObjectStore(SESSION_EVENTS, { keyPath: ['sessionId', 'seq'] });
  // v3 — course progress.
  if (!db.objectStoreNames.contains(COURSE_PROGRESS)) db.createObjectStore(COURSE_PROGRESS, { keyPath: 'lessonId' });
  // v4 — the imported user scope.
  if (!db.objectStoreNames.contains(USER_SCOPE)) db.createObjectStore(USER_SCOPE, { keyPath: 'id' });
}

export type OpenOptions = {
  /** Another database name (tests). */
  name?: string;
  /** Another schema version (tests of upgrades and blocking). */
  version?: number;
  /** The connection was closed for another tab's upgrade or by the browser: open again next time. */
  onClose?: () => void;
};

/**
 * Opens the database. Rejects with a `MemoryStoreError`; never leaves a stray connection: an open
 * that completes after we reported it blocked is closed at once.
 */
export function openHarnessDb(opts: OpenOptions = {}): Promise<IDBPDatabase> {
  const name = opts.name ?? DB_NAME;
  const version = opts.version ?? DB_VERSION;
  if (typeof indexedDB === 'undefined') {
    return Promise.reject(
      new MemoryStoreError('unavailable', 'This browser offers no IndexedDB (a private window?), so memories cannot be saved.'),
    );
  }
  return new Promise((resolve, reject) => {
    let gaveUp = false;
    let db: IDBPDatabase | undefined;
    openDB(name, version, {
      upgrade: (db, oldVersion) => upgrade(db, oldVersion),
      blocked: () => {
        gaveUp = true;
        reject(
          new MemoryStoreError(
            'blocked',
            `The browser database "${name}" is held open by another tab of Harness Playground running an older version. Close that tab (or reload it), then try again.`,
          ),
        );
      },
      blocking: () => {
        // A newer version wants in (another tab was updated): step aside rather than block it.
        db?.close();
        opts.onClose?.();
      },
      terminated: () => opts.onClose?.(),
    }).then(
      (opened) => {
        db = opened;
        if (gaveUp) {
          opened.close();
          return;
        }
        const missing = REQUIRED_STORES.filter((s) => !opened.objectStoreNames.contains(s));
        if (missing.length > 0) {
          opened.close();
          reject(
            new MemoryStoreError(
              'corrupt',
              `The browser database "${name}" (version ${opened.version}) has no "${missing.join('", "')}" store. Clear this site's data in the browser settings to start afresh.`,
            ),
          );
          return;
        }
        resolve(opened);
      },
      (err: unknown) => {
        if (gaveUp) return;
        reject(openError(name, version, err));
      },
    );
  });
}

/**
 * A connection opened on first use and reused; dropped when another tab's upgrade or the browser
 * closes it, and not cached when the open fails, so the next call tries again (the other tab may
 * have closed by then).
 */
export function reusableConnection(opts: Omit<OpenOptions, 'onClose'>): () => Promise<IDBPDatabase> {
  let conn: Promise<IDBPDatabase> | null = null;
  return () => {
    if (!conn) {
      const opening = openHarnessDb({ ...opts, onClose: () => (conn = null) });
      conn = opening;
      opening.catch(() => {
        if (conn === opening) conn = null;
      });
    }
    return conn;
  };
}

function openError(name: string, version: number, err: unknown): MemoryStoreError {
  const e = err as { name?: string; message?: string } | null;
  if (e?.name === 'VersionError') {
    return new MemoryStoreError(
      'corrupt',
      `The browser database "${name}" was written by a newer version of Harness Playground than this page (schema ${version}). Reload the page to get the newer version.`,
    );
  }
  return new MemoryStoreError('unavailable', `The browser database "${name}" could not be opened: ${e?.message ?? String(err)}.`);
}
