/**
 * `HttpHookClient` for the page. Stricter than Claude Code: an http hook is called only when the
 * user allowed its origin in Settings → Hook endpoints (`hook-endpoints.svelte.ts`), by their own
 * action. A settings file or a shared link can name any URL; before the user allows its origin, the
 * hook is a visible refusal in the hooks timeline (`hook.run` with `refused`), never a request.
 * Hooks from a link also wait for the trust dialog like every hook (they never reach the loop
 * before). The page's connect lock still applies: an origin allowed after the lock was narrowed
 * needs a reload, and the refusal says so.
 */
import type { HttpHookClient } from '../../harness/ports.ts';
import { postHookInput } from '../../hooks-runtime/http-hook-post.ts';
import { allowedConnectOrigins, connectLockedTo } from '../../security/connect-lock.svelte.ts';

export type PageHttpHookClientOptions = {
  /** Origins the user allowed (Settings → Hook endpoints). */
  allowedOrigins: () => readonly string[];
  fetch?: typeof fetch;
  /** The page's connect lock (tests pass their own). */
  lock?: { lockedTo: () => string | null; extra: () => readonly string[] };
};

export function originOfUrl(url: string): string | null {
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

export function createPageHttpHookClient(opts: PageHttpHookClientOptions): HttpHookClient {
  const lock = opts.lock ?? { lockedTo: connectLockedTo, extra: allowedConnectOrigins };
  return {
    async post(req) {
      const origin = originOfUrl(req.url);
      if (!origin) return { kind: 'refused', message: `"${req.url}" is not an http(s) URL, so this http hook was not called.` };
      if (!opts.allowedOrigins().includes(origin)) {
        return { kind: 'refused', message: `Not called: ${origin} is not an allowed hook endpoint. Add it in Settings → Hook endpoints if you want this page to POST hook events there.` };
      }
      const locked = lock.lockedTo();
      if (locked && origin !== locked && !lock.extra().includes(origin)) {
        return { kind: 'refused', message: `Not called: this page may only connect to ${locked} (its security policy was narrowed at the first live call). Reload the page to reach ${origin}.` };
      }
      return postHookInput(req, opts.fetch ?? fetch);
    },
  };
}
