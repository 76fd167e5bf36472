/**
 * The worker scripts that run an in-page MCP server's source: a classic Web Worker in the
 * browser's user-code sandbox (`src/user-code/`), a `node:worker_threads` Worker in Node (the
 * headless runner and tests) — the same `serveMcp` and the same user code in both.
 *
 * The user's code is spliced in as the body of a function that gets `server` (no eval: the
 * sandbox's policy has none), so a syntax error fails the worker's load and a throw at top level
 * fails the worker; either ends the connection with that message. Code that closes the function
 * early only reaches the worker it already runs in: the worker is the boundary.
 */
import { serveMcp } from './serve.ts';

const body = (source: string, post: string) => `const __name = (f) => f;
const __serve = (${serveMcp.toString()});
const __receive = __serve(function (server) {
${source}
}, ${post});`;

export function browserServerSource(source: string): string {
  return `// An in-page MCP server of Harness Playground, in its sandbox worker.
${body(source, '(m) => self.postMessage(m)')}
self.onmessage = (e) => __receive(e.data);
`;
}

export function nodeServerSource(source: string): string {
  return `// An in-page MCP server of Harness Playground, in a Node worker thread.
const { parentPort: __port } = require('node:worker_threads');
// Keep the worker's plumbing out of the server's reach (isolation, not a security sandbox: in
// Node the code still sees \`process\`).
try { delete globalThis.require; } catch {}
${body(source, '(m) => __port.postMessage(m)')}
__port.on('message', (m) => __receive(m));
`;
}
