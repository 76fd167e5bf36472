/**
 * One writer per session across tabs: a Web Lock named `session:<id>`, held for as long as this
 * tab writes the session. A second tab asking for it gets nothing (`ifAvailable`) and opens the
 * session read-only. Without the Web Locks API (old browsers, some test runners) every tab writes:
 * the store's transactions still keep each batch whole.
 */

export type SessionLock = { readonly id: string; release(): void };

type Locks = {
  request(name: string, opts: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<void> | void): Promise<unknown>;
};

export async function acquireSessionLock(id: string): Promise<SessionLock | null> {
  const locks = (globalThis.navigator as { locks?: Locks } | undefined)?.locks;
  if (!locks) return { id, release() {} };
  return new Promise<SessionLock | null>((resolve) => {
    locks
      .request(`session:${id}`, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(null);
          return;
        }
        // The lock is held until this promise settles, i.e. until `release()`.
        return new Promise<void>((release) => resolve({ id, release: () => release() }));
      })
      .catch(() => resolve(null));
  });
}
