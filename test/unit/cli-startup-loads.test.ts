/**
 * The runner starts small (issue 23 §3): what the runner's entry imports statically
 * (`dist-cli/bundle-graph.json`, written by `scripts/build-cli.mjs`) is the command line and
 * `--help` only — no MCP client, SDK, zod, re2js, yaml or just-bash — and a folder run with no MCP
 * server never loads the MCP client: it runs with that chunk deleted from a copy of the bundle;
 * nor does it load the shell parser (just-bash) on its own thread before the first request; and the
 * sandbox's thread answers without loading Node's fetch (undici).
 *
 * The graph and the cut chunks are the ES-module runner's (`runner.mjs`, run here with
 * `HARNESS_PLAYGROUND_CODE_CACHE=off`). The code-cached script (`runner.cjs`, what the launcher runs
 * by default) is built by esbuild from the same entry and the same import graph: a module reached
 * only through a dynamic import is a lazy chunk in one and a lazy initialiser in the other, run
 * when the same `import()` is, so what the graph shows of when a piece is evaluated holds for both.
 * (Minified, the script keeps no module names to check it by; `cli-code-cache.test.ts` runs it.)
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_DIR, LAZY_HEADERS } from '../../scripts/build-cli.mjs';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';

type Chunk = { file: string; bytes: number; origins: Record<string, number> };
type Graph = { entry: string; startupBytes: number; startup: Chunk[]; lazy: Chunk[]; sandboxThread: { entry: string; startup: Chunk[] } | null };

/** What must not be read before the run needs it. */
const HEAVY = /^(zod|re2js|yaml|just-bash|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk|ajv|isomorphic-git|@jitl\/.*|quickjs-emscripten.*|src\/mcp|src\/sandbox|src\/scenarios)$/;
const KEY = 'sk-ant-test-startup-0123456789';
const graph = () => JSON.parse(readFileSync(join(CLI_DIR, 'bundle-graph.json'), 'utf8')) as Graph;

let server: FakeAnthropicServer;

/** The copied bundle's ES-module runner as a process, with only the variables given (no ANTHROPIC_* of the caller's). */
function runCopy(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const { ANTHROPIC_API_KEY: _k, ANTHROPIC_BASE_URL: _u, ...base } = process.env;
    // The ES-module runner: its chunks are what these tests cut (see above).
    const child = spawn(process.execPath, [join(COPY, 'harness.mjs'), ...args], { env: { ...base, HARNESS_PLAYGROUND_CODE_CACHE: 'off', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
// A copy of the bundle under node_modules/ (so its external packages still resolve) that tests may cut.
const COPY = join(process.cwd(), 'node_modules', '.cache', `hp-cli-startup-${process.pid}`);
beforeAll(async () => {
  server = await startFakeAnthropicServer({ turns: [], requireApiKey: KEY });
  cpSync(CLI_DIR, COPY, { recursive: true });
});
afterAll(async () => {
  await server.close();
  rmSync(COPY, { recursive: true, force: true });
});

describe('runner start-up', () => {
  it('the entry statically imports the command line only: nothing heavy, a few tens of KB', () => {
    const g = graph();
    expect(g.entry).toBe('runner.mjs');
    const origins = g.startup.flatMap((c) => Object.keys(c.origins));
    expect(origins.filter((o) => HEAVY.test(o))).toEqual([]);
    expect(g.startupBytes).toBeLessThan(100_000);
    // The graph is complete: the heavy pieces are in the lazy chunks.
    const lazy = new Set(g.lazy.flatMap((c) => Object.keys(c.origins)));
    for (const o of ['zod', 're2js', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', 'src/mcp']) expect(lazy.has(o), o).toBe(true);
  });

  it('zod comes with its English messages only (its other locales were 264 KB read before the first request)', () => {
    const g = graph();
    const zodBytes = [...g.startup, ...g.lazy].reduce((n, c) => n + (c.origins.zod ?? 0), 0);
    expect(zodBytes).toBeGreaterThan(100_000);
    expect(zodBytes).toBeLessThan(250_000);
  });

  it('the SDK comes as its Messages client only (messages-sdk.ts): not the whole surface (beta, files, webhooks), ~450 KB before the first request', () => {
    const g = graph();
    const chunks = [...g.startup, ...g.lazy];
    const sdkBytes = chunks.reduce((n, c) => n + (c.origins['@anthropic-ai/sdk'] ?? 0), 0);
    expect(sdkBytes).toBeGreaterThan(60_000);
    expect(sdkBytes).toBeLessThan(200_000);
    // The webhook verifier and its hashing are what the full client's `webhooks` resource brings.
    for (const o of ['standardwebhooks', 'fast-sha256']) expect(chunks.some((c) => o in c.origins), o).toBe(false);
  });

  it('the sandbox thread reads just-bash and the sandbox before it answers, not the harness parsers or the SDK', () => {
    const t = graph().sandboxThread;
    expect(t?.entry).toBe('sandbox-worker.mjs');
    const origins = new Set(t!.startup.flatMap((c) => Object.keys(c.origins)));
    expect(origins.has('just-bash')).toBe(true);
    for (const o of ['zod', 're2js', 'yaml', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk']) expect(origins.has(o), o).toBe(false);
  });

  it('the sandbox thread answers without loading Node\'s fetch (undici): just-bash reads `Headers` at its first use, not as it loads', { timeout: 60_000 }, async () => {
    // The built thread entry, in a thread of its own, as the runner starts it; a second listener
    // reports which of Node's internal modules that thread has loaded.
    const entry = pathToFileURL(join(COPY, 'sandbox-worker.mjs')).href;
    const worker = new Worker(
      // The probe listens once the entry does: a port delivers what is queued to its first listener.
      `const { parentPort } = require('node:worker_threads');
       import(${JSON.stringify(entry)}).then(() => parentPort.on('message', (m) => {
         if (m.t === 'probe') parentPort.postMessage({ t: 'probe', loaded: process.moduleLoadList.filter((x) => /undici/.test(x)) });
       }));`,
      { eval: true },
    );
    try {
      const next = (t: string) => new Promise<Record<string, unknown>>((resolve, reject) => {
        const on = (m: Record<string, unknown>) => m.t === t && (worker.off('message', on), resolve(m));
        worker.on('message', on);
        worker.once('error', reject);
      });
      const ready = next('ready');
      worker.postMessage({ t: 'init', files: { '/home/user/a.txt': 'hello\n' }, dirs: [] });
      await ready;
      const probe = next('probe');
      worker.postMessage({ t: 'probe' });
      expect((await probe).loaded).toEqual([]);
    } finally {
      await worker.terminate();
    }
  });

  it('the stand-in for `Headers` builds real Headers and answers `instanceof` as the global does', () => {
    const Lazy = new Function(`return ${LAZY_HEADERS}`)() as typeof Headers;
    const h = new Lazy({ 'X-Test': 'one' });
    expect(h).toBeInstanceOf(Headers);
    expect(h.get('x-test')).toBe('one');
    expect(new Headers() instanceof Lazy).toBe(true);
    expect({} instanceof Lazy).toBe(false);
  });

  it('a folder run without MCP servers never loads the MCP client (it runs with that chunk deleted)', { timeout: 90_000 }, async () => {
    const mcpChunks = graph().lazy.filter((c) => '@modelcontextprotocol/sdk' in c.origins);
    expect(mcpChunks.length).toBeGreaterThan(0);
    for (const c of mcpChunks) rmSync(join(COPY, c.file));
    const dir = mkdtempSync(join(tmpdir(), 'hp-startup-'));
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    server.setTurns([{ content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'text', text: 'It says hello.' }] }]);
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, HARNESS_PLAYGROUND_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'hp-startup-cfg-')) };
    const r = await runCopy(['--dir', dir, '-p', 'read a.txt', '--trust'], env);
    expect(r.stderr).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('It says hello.');
    // With a server configured, the same cut bundle fails to load the client: the chunk really is the MCP client.
    writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { s: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } }));
    server.setTurns([{ content: [{ type: 'text', text: 'ok' }] }]);
    const withMcp = await runCopy(['--dir', dir, '-p', 'hi', '--trust', '--mcp-config', join(dir, '.mcp.json')], env);
    expect(withMcp.stderr).toMatch(/mcp: server "s" not used[^\n]*(Cannot find module|ERR_MODULE_NOT_FOUND|chunk-)/);
  });

  it('the first request goes out before this thread loads the shell parser (and just-bash with it)', { timeout: 90_000 }, async () => {
    // The chunk of sandbox/justbash/shell-parser.ts, found by its port's name; only this thread loads it.
    const parserChunk = readdirSync(COPY).find((f) => f.endsWith('.mjs') && readFileSync(join(COPY, f), 'utf8').includes('name:"just-bash",parse'));
    expect(parserChunk).toBeDefined();
    rmSync(join(COPY, parserChunk!));
    const dir = mkdtempSync(join(tmpdir(), 'hp-startup-parser-'));
    writeFileSync(join(dir, 'a.txt'), 'hello\n');
    server.setTurns([{ content: [{ type: 'text', text: 'Nothing to do.' }] }]);
    const before = server.requests.filter((r) => r.method === 'POST').length;
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, HARNESS_PLAYGROUND_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'hp-startup-cfg-')) };
    const r = await runCopy(['--dir', dir, '-p', 'hi', '--trust'], env);
    // The request was sent with the parser's chunk missing; the run stops when it waits for the parser, before anything is judged.
    expect(server.requests.filter((r) => r.method === 'POST').length).toBe(before + 1);
    expect(r.stderr).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    expect(r.code).not.toBe(0);
  });
});
