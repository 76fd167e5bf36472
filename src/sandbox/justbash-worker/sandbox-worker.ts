/**
 * The browser entry of the sandbox worker (a module Worker started by `index.ts`): wires the
 * worker's message port to {@link serveSandbox}.
 */
import { serveSandbox } from './host.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

const scope = globalThis as unknown as {
  addEventListener(type: 'message', fn: (e: { data: ToWorker }) => void): void;
  postMessage(message: FromWorker): void;
};

serveSandbox({
  post: (msg) => scope.postMessage(msg),
  listen: (handler) => scope.addEventListener('message', (e) => handler(e.data)),
});
