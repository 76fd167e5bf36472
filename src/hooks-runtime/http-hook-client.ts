/**
 * `HttpHookClient` for Node (the headless runner, unit tests): POSTs to any http(s) URL, as Claude
 * Code does. Headless runs execute hooks only from trusted settings; that is the gate here (the
 * page adds an origin allow-list, `src/ui/state/page-http-hook-client.ts`).
 */
import type { HttpHookClient } from '../harness/ports.ts';
import { postHookInput } from './http-hook-post.ts';

export function createNodeHttpHookClient(fetchFn: typeof fetch = fetch): HttpHookClient {
  return {
    async post(req) {
      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return { kind: 'refused', message: `"${req.url}" is not a URL; an http hook needs an http(s) "url".` };
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'refused', message: `${url.protocol} is not http(s); an http hook POSTs over HTTP only.` };
      return postHookInput(req, fetchFn);
    },
  };
}
