/**
 * In-page servers in Node (the headless runner, tests): the server's source in a
 * `node:worker_threads` Worker (`eval: true`, like the JS hook runner), terminated on close.
 */
import { Worker } from 'node:worker_threads';
import type { OpenServerChannel } from './channel.ts';
import { nodeServerSource } from './worker-source.ts';

export const openNodeServerChannel: OpenServerChannel = (source, on) => {
  const worker = new Worker(nodeServerSource(source), { eval: true, stdout: true, stderr: true });
  let closed = false;
  worker.on('message', (m) => on.message(m));
  worker.on('error', (e) => on.error(e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
  worker.on('exit', (code) => {
    if (!closed) on.error(`the server stopped (exit code ${code})`);
  });
  return {
    post: (m) => worker.postMessage(m),
    close() {
      closed = true;
      void worker.terminate();
    },
  };
};
