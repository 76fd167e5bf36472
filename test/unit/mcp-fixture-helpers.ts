/** Small helpers for the MCP tests. */
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago (nothing listens on it now): a server that is down. */
export function freePortForTest(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
