/**
 * The bundled runner against the fake Anthropic server on loopback, for CLI tests that drive a
 * live-model run: one server per test file (started before its tests, closed after), a key the
 * server requires, and a sessions folder of the file's own.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
// The bundle is built once per test run by the global setup (test/helpers/build-cli-once.ts).
import { runCliBundle, type CliRun } from './cli.ts';

export type BundleOnFakeServer = {
  /** The server; set once the file's tests start. */
  readonly server: FakeAnthropicServer;
  /** `HARNESS_PLAYGROUND_CONFIG_DIR` of every run: where sessions are saved. */
  readonly sessions: string;
  /** One run of the bundle with the key and the server's URL; `stdin` is written and closed. */
  run(args: readonly string[], stdin?: string): Promise<CliRun>;
};

/** Registers the file's `beforeAll` / `afterAll`: call it at the top level of a test file. */
export function bundleOnFakeServer(key: string, sessionsPrefix: string): BundleOnFakeServer {
  const sessions = mkdtempSync(join(tmpdir(), sessionsPrefix));
  let server: FakeAnthropicServer | undefined;
  const started = (): FakeAnthropicServer => {
    if (!server) throw new Error('the fake server starts in beforeAll');
    return server;
  };
  beforeAll(async () => {
    server = await startFakeAnthropicServer({ turns: [], requireApiKey: key });
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server() {
      return started();
    },
    sessions,
    run: (args, stdin = '') => runCliBundle(args, { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: started().url, HARNESS_PLAYGROUND_CONFIG_DIR: sessions }, process.cwd(), stdin),
  };
}
