/**
 * The runner's shell parser starts loading once the first request's body is on the wire
 * (`startAfterNextRequestSent`, on Node's fetch diagnostics), not before: its compile must not
 * sit between the loop's `model.request` and the bytes leaving (issue 23 §3).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startAfterNextRequestSent } from '../../src/cli/request-sent.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A local server that records, for each request, whether `started()` was already true when it arrived. */
async function listen(started: () => boolean): Promise<{ url: string; seen: boolean[] }> {
  const seen: boolean[] = [];
  server = createServer((req, res) => {
    seen.push(started());
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/messages`, seen };
}

describe('startAfterNextRequestSent', () => {
  it('starts once the request body is written — before the server sees it, after the call began — and only once', async () => {
    let starts = 0;
    const { url, seen } = await listen(() => starts > 0);
    startAfterNextRequestSent(() => starts++);
    expect(starts).toBe(0);
    const pending = fetch(url, { method: 'POST', body: JSON.stringify({ messages: ['x'.repeat(50_000)] }) });
    expect(starts).toBe(0);
    await (await pending).text();
    expect(seen).toEqual([true]);
    await (await fetch(url, { method: 'POST', body: '{}' })).text();
    expect(starts).toBe(1);
  });

  it('stop() unsubscribes without starting (a run that ends before any request)', async () => {
    let starts = 0;
    const { url } = await listen(() => starts > 0);
    startAfterNextRequestSent(() => starts++).stop();
    await Promise.resolve(); // the unsubscribe is queued as a microtask
    await (await fetch(url, { method: 'POST', body: '{}' })).text();
    expect(starts).toBe(0);
  });
});
