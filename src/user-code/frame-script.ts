/**
 * The script of the user-code sandbox frame, as TEXT. It runs inside a `sandbox="allow-scripts"`
 * srcdoc iframe (an opaque origin: no storage, no cookies, no access to the app's page) and does
 * one thing: on a `run` message from its parent, it starts a classic Worker from a blob: holding
 * the job's source, posts the job's data to it, and relays what the worker posts (or its failure)
 * back to the parent; on `post` it passes one more message to that worker; on `cancel` it
 * terminates it. User code never runs on the frame's
 * own thread, so a busy loop stalls only its worker, which `cancel` ends.
 *
 * It is a string constant, not a function, on purpose: the app's Content-Security-Policy allows
 * this inline script by its SHA-256 (see `src/security/headers.ts`), so the bytes must be the
 * same in vite.config.ts (which hashes them) and in the bundle (which inlines them). A string
 * survives minification unchanged; a function's `toString()` would not. It must never contain
 * a closing script tag.
 *
 * The frame trusts nothing: messages not from its parent, not on the channel, or not shaped as
 * expected are ignored. Host-side validation lives in `protocol.ts`.
 */
export const FRAME_SCRIPT = `(() => {
  const CH = 'hp-user-code';
  const jobs = new Map();
  const send = (m) => parent.postMessage(m, '*');
  const stop = (id) => {
    const job = jobs.get(id);
    if (!job) return;
    jobs.delete(id);
    job.worker.terminate();
    URL.revokeObjectURL(job.url);
  };
  const fail = (id, message) => send({ channel: CH, id, kind: 'error', payload: { message: String(message) } });
  addEventListener('message', (e) => {
    if (e.source !== parent) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || m.channel !== CH || typeof m.id !== 'string') return;
    if (m.kind === 'cancel') return stop(m.id);
    if (m.kind === 'post') { const job = jobs.get(m.id); if (job) job.worker.postMessage(m.payload); return; }
    if (m.kind !== 'run' || jobs.has(m.id) || !m.payload || typeof m.payload.source !== 'string') return;
    let url = '';
    try {
      url = URL.createObjectURL(new Blob([m.payload.source], { type: 'text/javascript' }));
      const worker = new Worker(url, { name: 'user-code' });
      jobs.set(m.id, { worker, url });
      worker.onmessage = (ev) => {
        try { send({ channel: CH, id: m.id, kind: 'message', payload: ev.data }); }
        catch (err) { fail(m.id, 'the result could not be sent: ' + ((err && err.message) || err)); }
      };
      worker.onerror = (ev) => {
        ev.preventDefault();
        fail(m.id, ev.message || 'the worker script failed to load');
        stop(m.id);
      };
      worker.onmessageerror = () => fail(m.id, 'the result could not be read');
      worker.postMessage(m.payload.data);
    } catch (err) {
      if (url) URL.revokeObjectURL(url);
      fail(m.id, (err && err.message) || err);
    }
  });
  send({ channel: CH, kind: 'ready' });
})();`;

/**
 * The frame's own policy, on top of the app's (a srcdoc frame inherits the app's policy and may
 * only tighten it): nothing may load or connect; the one inline script is allowed by hash; the
 * job workers may start only from blob:. A worker created from a blob: inherits this policy, so
 * user code gets no fetch, XHR, WebSocket, EventSource, importScripts or import() either.
 */
export function framePolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src '${scriptHash}'`,
    'worker-src blob:',
    "connect-src 'none'",
    "img-src 'none'",
    "style-src 'none'",
    "font-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}
