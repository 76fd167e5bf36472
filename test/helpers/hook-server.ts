/**
 * A loopback HTTP endpoint for `type: "http"` hooks: records every request (method, path, headers,
 * parsed JSON body) and answers with what the test's `reply` says for it. `hold: true` never
 * answers (for timeouts); `close()` ends open requests too.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HookRequest = { method: string; path: string; headers: Record<string, string>; body: unknown };
export type HookReply = { status?: number; body?: string; hold?: boolean };

export type HookServer = { url: string; origin: string; requests: HookRequest[]; close(): Promise<void> };

/** `cors: true` answers preflights and adds `Access-Control-Allow-Origin: *` (for a page calling it). */
export async function startHookServer(reply: (req: HookRequest) => HookReply, opts: { cors?: boolean } = {}): Promise<HookServer> {
  const requests: HookRequest[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (opts.cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*' });
        res.end();
        return;
      }
    }
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const r: HookRequest = { method: req.method ?? '', path: req.url ?? '', headers, body };
      requests.push(r);
      const answer = reply(r);
      if (answer.hold) {
        open.add(res);
        return;
      }
      res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/hook`,
    origin,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
