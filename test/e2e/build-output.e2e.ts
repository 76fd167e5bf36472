/**
 * What the build hands a first visitor's browser before the app can work — the entry's static
 * closure and the sandbox worker's — is ASCII only (`output.charset: 'ascii'` in vite.config.ts):
 * one non-ASCII byte makes the browser decode a whole script into a two-byte string, which it
 * decodes and V8 scans more slowly (a trace of the worker: 66 ms of decoding for 12 such bytes in
 * 0.7 MB, on the path of a cold page's first Step), and the worker's script is one file. Read from
 * `dist/`, the build the preview serves.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryClosure, sandboxWorkerClosure } from '../bench/entry-closure.ts';
import { externalBaseUrl } from './base-url.ts';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

/** Each non-ASCII character of `file` with a little context, for a failure that says where. */
function nonAsciiSamples(file: string): string[] {
  const text = readFileSync(join(dist, file), 'utf8');
  return [...text.matchAll(/[\u0080-\u{10ffff}]/gu)].slice(0, 3).map((m) => `${file}: …${text.slice(Math.max(0, m.index - 30), m.index + 10)}…`);
}

// Against an app someone serves (E2E_BASE_URL, e.g. `npm run dev`), dist/ is not what the browser runs.
describe.skipIf(externalBaseUrl(process.env) !== null || !existsSync(join(dist, 'index.html')))('the build’s start-up scripts', () => {
  it('the first screen’s scripts and the sandbox worker’s are ASCII only', () => {
    const entry = entryClosure(dist);
    const worker = sandboxWorkerClosure(dist);
    expect(worker, 'the build has a sandbox worker script').not.toBeNull();
    for (const closure of [entry, worker!]) {
      expect(closure.files.length).toBeGreaterThan(0);
      expect(closure.nonAscii, closure.files.flatMap(nonAsciiSamples).join('\n')).toBe(0);
    }
  });

  // Session export and import (the JSONL format, its zod schemas: ~6 ms of a cold load's evaluation)
  // load at their first use; sessions.e2e.ts exports and imports through the page.
  it('the first screen does not carry the session file format', () => {
    const entry = entryClosure(dist);
    const text = entry.files.map((f) => readFileSync(join(dist, f), 'utf8')).join('\n');
    // A string of harness/session/jsonl.ts's own (its check of an event record).
    expect(text.includes('malformed event'), `${entry.files.join(', ')} carry jsonl.ts`).toBe(false);
  });

  // RE2 and yaml load on demand (`harness/util/engines.ts`, issue 23 §4), and so does every zod schema
  // (the document layer, `ui/state/documents.ts`; the stores' record checks; the harness with a run): a
  // share link, a panel, the trust gate and a run await them; the first screen paints without them.
  it('the first screen carries no heavy package: not RE2, yaml, zod, the loop or the MCP SDK', () => {
    const entry = entryClosure(dist);
    expect(entry.heavy, entry.files.join(', ')).toEqual([]);
  });

  // A module worker finds its script's static imports only once it has compiled it: each is a request
  // after that, before the worker can answer (`inline-runtime.ts` copies the bundler's runtime in).
  it('the sandbox worker’s script imports nothing statically: one request before it can answer', () => {
    const worker = sandboxWorkerClosure(dist)!;
    expect(worker.files).toHaveLength(1);
    // The command chunks still import the runtime's own file: sandbox.e2e.ts's self-check loads every command.
  });
});
