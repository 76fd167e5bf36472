/**
 * The one POST both `HttpHookClient`s make (Node's and the page's): the hook input as JSON, no
 * redirect followed (the hook's URL is the only place the input goes), abandoned at the timeout or
 * the run's signal, the answer read as text up to {@link MAX_HTTP_HOOK_BODY} characters. Never rejects.
 */
import type { HttpHookRequest, HttpHookResponse } from '../harness/ports.ts';

export const MAX_HTTP_HOOK_BODY = 1_000_000;

export async function postHookInput(req: HttpHookRequest, fetchFn: typeof fetch = fetch): Promise<HttpHookResponse> {
  const ctl = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    ctl.abort();
  }, req.timeoutMs);
  const onAbort = () => ctl.abort();
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await fetchFn(req.url, {
      method: 'POST',
      headers: { ...req.headers, 'Content-Type': 'application/json' },
      body: req.body,
      redirect: 'manual',
      signal: ctl.signal,
    });
    const text = await res.text();
    // A manual redirect in the page is an opaque response with status 0: say what it was.
    const status = res.type === 'opaqueredirect' ? 302 : res.status;
    return { kind: 'response', status, body: text.length > MAX_HTTP_HOOK_BODY ? text.slice(0, MAX_HTTP_HOOK_BODY) : text };
  } catch (e) {
    if (timedOut) return { kind: 'failed', message: `no answer within ${Math.round(req.timeoutMs / 1000)} s`, timedOut: true };
    if (req.signal?.aborted) return { kind: 'failed', message: 'the run was stopped', timedOut: false };
    const cause = e instanceof Error ? ((e.cause as Error | undefined)?.message ?? e.message) : String(e);
    return { kind: 'failed', message: cause, timedOut: false };
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
}
