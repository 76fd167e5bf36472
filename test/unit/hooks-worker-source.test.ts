/**
 * The script the browser's sandbox worker runs for a JS hook (`hookWorkerSource`), run here in a
 * node:worker_threads Worker behind a small `self` shim (postMessage / onmessage), so its
 * wrapping of the hook's body can be checked without a browser.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { hookWorkerSource } from '../../src/hooks-runtime/hook-worker-source.ts';

const SHIM = `
const { parentPort } = require('node:worker_threads');
globalThis.self = {
  postMessage: (m) => parentPort.postMessage(m),
  set onmessage(fn) { if (fn) parentPort.once('message', (data) => fn({ data })); },
};
`;

function runSource(code: string, input: unknown): Promise<{ message?: unknown; error?: string }> {
  return new Promise((resolve) => {
    const w = new Worker(SHIM + hookWorkerSource(code), { eval: true });
    w.once('message', (message: unknown) => {
      resolve({ message });
      void w.terminate();
    });
    w.once('error', (e) => resolve({ error: `${e.name}: ${e.message}` }));
    w.postMessage(input);
  });
}

describe('the sandbox worker script of a JS hook', () => {
  it('runs the body with its input and answers with the hook result', async () => {
    const r = await runSource('console.log("noise"); return { reason: input.tool_input.command }', { tool_input: { command: 'ls' } });
    expect(r.message).toEqual({ exitCode: 0, stdout: '{"reason":"ls"}', stderr: '' });
  });

  it('a block, a throw and an await behave as in the Node runner', async () => {
    expect((await runSource('return { block: "no" }', {})).message).toEqual({ exitCode: 2, stdout: '', stderr: 'no' });
    expect((await runSource('throw new TypeError("boom")', {})).message).toEqual({ exitCode: 1, stdout: '', stderr: 'TypeError: boom\n' });
    expect((await runSource('await new Promise((r) => setTimeout(r, 1)); return 7', {})).message).toMatchObject({ stdout: '7' });
  });

  it('a body that does not parse fails the whole script with a SyntaxError (no eval needed)', async () => {
    const r = await runSource('return (', {});
    expect(r.error).toMatch(/^SyntaxError/);
  });

  it('a body ending in a line comment still closes its function', async () => {
    expect((await runSource('return 1 // done', {})).message).toMatchObject({ exitCode: 0, stdout: '1' });
  });
});
