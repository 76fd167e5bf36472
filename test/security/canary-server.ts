/**
 * A loopback server that counts every request and WebSocket upgrade it gets, and answers as
 * permissively as a hostile server would (CORS for everyone, CORP cross-origin, JavaScript for
 * any .js path), so that a request from user code fails only if the sandbox stops it, not
 * because the server refused it. Zero hits after an attack means nothing got out.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Canary = { url: string; wsUrl: string; hits: () => string[]; close: () => Promise<void> };

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const headers = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Cache-Control': 'no-store',
    };
    if (req.url?.includes('.js')) {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript' });
      res.end('self.__canaryLoaded = true; export const loaded = true;');
    } else if (req.url?.includes('events')) {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream' });
      res.end('data: hello\n\n');
    } else {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/plain' });
      res.end('canary');
    }
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    hits: () => [...hits],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
