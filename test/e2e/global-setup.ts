import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { E2E_API_KEY } from './constants.ts';
import { E2E_CHROMIUM_ARGS, chromiumPath } from './browser-args.ts';
import { startFakeAnthropic, startVitePreview, type ServerProcess } from './servers.ts';
import { externalBaseUrl } from './base-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of `vite preview` serving dist/, e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** Absolute path of the Chromium executable. */
    chromiumPath: string;
    /** WebSocket endpoint of the one Chromium every test file connects to (see browser.ts). */
    browserWsEndpoint: string;
    /** Base URL of the fake Anthropic server, or '' when it could not start (see fakeServerError). */
    fakeServerUrl: string;
    fakeServerError: string;
  }
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const FAKE_SERVER_SCRIPT = 'test/fixtures/start-fake-server.ts';

/** An error whose report is its message alone: these are set-up instructions, not bugs. */
function setupError(message: string): Error {
  const err = new Error(message);
  err.stack = message;
  return err;
}

function findChromium(): string {
  const found = chromiumPath();
  if (!found) {
    throw setupError(
      'Chromium not found: install it with `sudo apt-get install -y chromium-headless-shell` (Debian) or set CHROMIUM_PATH',
    );
  }
  return found;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = findChromium();
  // `E2E_BASE_URL` (base-url.ts): an app someone already serves, e.g. `npm run dev` while working on the UI.
  const external = externalBaseUrl(process.env);
  if (!external && !existsSync(`${repoRoot}/dist/index.html`)) {
    throw setupError('dist/index.html not found: run `npm run build` before `npm run test:e2e` (or serve the app and set E2E_BASE_URL)');
  }

  const started: ServerProcess[] = [];
  let snapshot: string | null = null;
  const teardown = async () => {
    await Promise.all(started.map((s) => s.stop()));
    if (snapshot) rmSync(snapshot, { recursive: true, force: true });
  };
  try {
    let baseUrl = external;
    if (!baseUrl) {
      // Serve a snapshot of dist/: a `vite build` started meanwhile (in a shared working tree) empties
      // dist/ first, which would turn page loads of a running suite into 404s.
      snapshot = mkdtempSync(join(tmpdir(), 'hp-e2e-dist-'));
      cpSync(`${repoRoot}/dist`, snapshot, { recursive: true });
      const preview = await startVitePreview(repoRoot, snapshot, { compress: false });
      started.push(preview);
      baseUrl = preview.url;
    }

    // One Chromium for the whole run: each file connects to it with a context of its own, which the
    // page fixture empties of the app's storage after each test (browser.ts), so tests stay isolated
    // without paying a browser start each.
    const browserServer = await chromium.launchServer({ executablePath: chromiumPath, args: E2E_CHROMIUM_ARGS, headless: true });
    started.push({ url: browserServer.wsEndpoint(), output: () => '', stop: () => browserServer.close() });

    // The live-mode test needs this server; the others do not, so a broken fixture fails that
    // test (with this message) instead of the whole suite.
    let fakeServerUrl = '';
    let fakeServerError = '';
    if (!existsSync(`${repoRoot}/${FAKE_SERVER_SCRIPT}`)) {
      fakeServerError = `${FAKE_SERVER_SCRIPT} does not exist`;
    } else {
      try {
        // The server answers 401 to any other key, so a live run passing proves the key typed in
        // Settings is the one sent to the configured endpoint.
        const fake = await startFakeAnthropic(repoRoot, FAKE_SERVER_SCRIPT, ['--require-key', E2E_API_KEY]);
        started.push(fake);
        fakeServerUrl = fake.url;
      } catch (err) {
        fakeServerError = err instanceof Error ? err.message : String(err);
      }
    }

    project.provide('baseUrl', baseUrl);
    project.provide('chromiumPath', chromiumPath);
    project.provide('browserWsEndpoint', browserServer.wsEndpoint());
    project.provide('fakeServerUrl', fakeServerUrl);
    project.provide('fakeServerError', fakeServerError);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
