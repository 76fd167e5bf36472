/**
 * The Node entry of the sandbox worker, for a `node:worker_threads` Worker (the unit tests run
 * the page side against it, so the protocol and the abort flag are tested on a real thread).
 */
import { parentPort } from 'node:worker_threads';
import { serveSandbox } from './host.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('node-entry.ts must run inside a worker thread');

serveSandbox({
  post: (msg: FromWorker) => port.postMessage(msg),
  listen: (handler) => port.on('message', (msg: ToWorker) => handler(msg)),
});
