/**
 * A new session's Web Lock is asked for at once and not waited for (`SessionRecording.begin`): the
 * run's first event goes on while the browser grants it. Two ends of that, with a `navigator.locks`
 * whose grants the test hands out (Node has no Web Locks):
 * - the session ends (Reset) before the grant: the lock is let go as it arrives, so another tab can
 *   write that session later instead of finding it locked by nobody's tab;
 * - the grant arrives while the session is current: the tab holds it, and only then tells other
 *   tabs the list changed (they cannot have asked for the lock before this tab did).
 */
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { stubLocalStorage } from '../helpers/local-storage.ts';
import { memoryPageState } from '../helpers/page-state.ts';

/** Web Locks whose grants wait for the test. */
class HeldLocks {
  readonly asked: { name: string; grant: () => void }[] = [];
  readonly held = new Set<string>();
  request(name: string, _opts: { ifAvailable: boolean }, cb: (lock: unknown) => Promise<void> | void): Promise<unknown> {
    return new Promise((done) => {
      this.asked.push({
        name,
        grant: () => {
          this.held.add(name);
          void Promise.resolve(cb({ name })).then(() => {
            this.held.delete(name);
            done(undefined);
          });
        },
      });
    });
  }
}

let locks = new HeldLocks();
beforeAll(() => {
  stubLocalStorage();
  vi.stubGlobal('navigator', {
    ...globalThis.navigator,
    get locks() {
      return locks;
    },
  });
});
beforeEach(() => {
  locks = new HeldLocks();
});

describe("a new session's Web Lock, granted after the first event", () => {
  test('the session ends before the grant: the lock is let go as it arrives', async () => {
    const { page } = memoryPageState();
    await page.ctl.step();
    expect(page.ctl.events).toHaveLength(1);
    const id = page.recording.current?.id;
    expect(id).toBeTruthy();
    await vi.waitFor(() => expect(locks.asked.map((a) => a.name)).toEqual([`session:${id}`]));
    expect(locks.held.size).toBe(0);

    await page.ctl.reset();
    expect(page.recording.current).toBeNull();
    locks.asked[0]!.grant();
    expect(locks.held.has(`session:${id}`)).toBe(true);
    // Arrived for a session that is over: released at once.
    await vi.waitFor(() => expect(locks.held.has(`session:${id}`)).toBe(false));
  });

  test('granted while the session is current: held for as long as it is written, and the list broadcast follows the grant', async () => {
    const heard: unknown[] = [];
    const listener = new BroadcastChannel('hp-sessions');
    listener.onmessage = (e: MessageEvent) => heard.push(e.data);
    try {
      const { page } = memoryPageState();
      await page.ctl.step();
      const id = page.recording.current!.id;
      await vi.waitFor(() => expect(locks.asked).toHaveLength(1));
      locks.asked[0]!.grant();
      await vi.waitFor(() => expect(heard).toContainEqual({ type: 'list' }));
      expect(locks.held.has(`session:${id}`)).toBe(true);
      // Still this tab's while it steps on; released when the session ends.
      await page.ctl.step();
      expect(locks.held.has(`session:${id}`)).toBe(true);
      await page.ctl.reset();
      await vi.waitFor(() => expect(locks.held.has(`session:${id}`)).toBe(false));
    } finally {
      listener.close();
    }
  });
});
