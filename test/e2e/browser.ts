import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { test as base, inject } from 'vitest';
import { CHROMIUM_ARGS } from './browser-args.ts';

export { CHROMIUM_ARGS };

const resultsDir = fileURLToPath(new URL('../../test-results/', import.meta.url));

/** Where a test keeps a screenshot for people to look at (`test-results/shots/<name>`, not committed). */
export function shotPath(name: string): string {
  return `${resultsDir}shots/${name}`;
}

/**
 * Connect to the run's Chromium (Debian's, launched once by global-setup.ts: playwright-core cannot
 * download one here). Closing the returned browser closes the contexts this file made and
 * disconnects; the browser itself lives until the run ends. Starting one per file cost a launch
 * per file on a 2-core machine for no isolation a fresh context does not already give.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserWsEndpoint'));
}

type PageLog = { errors: string[]; allowed: RegExp[] };
const logs = new WeakMap<Page, PageLog>();

/** Hosts the app may talk to in tests: the preview server and the fake Anthropic server. */
function isLocal(url: string): boolean {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'ws:' && u.protocol !== 'wss:') return true;
    return u.hostname === '127.0.0.1' || u.hostname === 'localhost';
  } catch {
    return true;
  }
}

/**
 * Record console errors, uncaught page errors and crashes of `page`, and any request that leaves
 * the machine (the app must work offline; a key must go only to the configured endpoint).
 */
export function watchConsole(page: Page): void {
  const log: PageLog = { errors: [], allowed: [] };
  logs.set(page, log);
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location();
    log.errors.push(`console.error: ${msg.text()}${where.url ? ` (${where.url}:${where.lineNumber})` : ''}`);
  });
  page.on('pageerror', (err) => log.errors.push(`pageerror: ${err.stack ?? err.message}`));
  page.on('crash', () => log.errors.push('page crashed'));
  page.on('request', (req) => {
    if (!isLocal(req.url())) log.errors.push(`request to a non-local host: ${req.method()} ${req.url()}`);
  });
}

/** Declare console errors this test expects (e.g. a request the test makes fail on purpose). */
export function allowConsoleErrors(page: Page, pattern: RegExp): void {
  logs.get(page)?.allowed.push(pattern);
}

/** The console and page errors so far that no `allowConsoleErrors` pattern matches. */
export function unexpectedConsoleErrors(page: Page): string[] {
  const log = logs.get(page);
  if (!log) return [];
  return log.errors.filter((e) => !log.allowed.some((re) => re.test(e)));
}

/** Fail the test if the page logged an error it did not expect. */
export function expectNoConsoleErrors(page: Page): void {
  const errors = unexpectedConsoleErrors(page);
  if (errors.length > 0) {
    throw new Error(`the page logged ${errors.length} unexpected error(s):\n  ${errors.join('\n  ')}`);
  }
}

function screenshotName(file: string, testName: string): string {
  const slug = `${basename(file).replace(/\.e2e\.ts$/, '')}--${testName}`
    .replace(/[^a-zA-Z0-9._-]+/g, '-')
    .slice(0, 150);
  return `${resultsDir}${slug}.png`;
}

/**
 * A context for a real first visit: without the fixture's "already welcomed" flag (so the guided
 * start shows) and, like the fixture's, with every request off the machine failing fast.
 */
export async function firstVisitContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  // Outside requests fail at the browser's dead proxy (CHROMIUM_ARGS) and are reported by watchConsole.
  return browser.newContext({ viewport: { width: 1440, height: 900 }, ...options });
}

/**
 * The app's origin as the browser sees it (the preview server, or E2E_BASE_URL's), whose storage a
 * test leaves behind and the next test must not find.
 */
const appOrigin = () => new URL(inject('baseUrl')).origin;

/**
 * Makes `context` as the next test must find it: no page open, and nothing the app stored —
 * IndexedDB, localStorage, Cache Storage, service workers, cookies, file systems — while the HTTP
 * cache stays, with the scripts V8 compiled from it. A fresh context per test compiled the whole
 * app again on every page (see `test` below).
 */
async function resetContext(context: BrowserContext): Promise<void> {
  for (const p of context.pages()) await p.close();
  const blank = await context.newPage();
  try {
    const cdp = await context.newCDPSession(blank);
    await cdp.send('Storage.clearDataForOrigin', { origin: appOrigin(), storageTypes: 'all' });
    await cdp.detach();
  } finally {
    await blank.close();
  }
}

/**
 * `test` with a connection to the run's browser and a context per file, and a page per test (the
 * context emptied after each, see `context` below). The page fixture fails the test on unexpected
 * console errors and saves a screenshot to test-results/ when the test fails.
 */
export const test = base.extend<{ $test: { page: Page }; $file: { browser: Browser; context: BrowserContext } }>({
  browser: [
    // eslint-disable-next-line no-empty-pattern -- vitest fixtures must destructure their first argument
    async ({}, use) => {
      const browser = await launchBrowser();
      await use(browser);
      await browser.close();
    },
    { scope: 'file' },
  ],
  /**
   * One context per file, made as a fresh one for each test: every page a test opened is closed
   * and the app's storage cleared after it (`resetContext`), so a test finds no session, setting
   * or flag of the one before. What it shares is the HTTP cache, so after the file's first page
   * the app's scripts load from V8's code cache instead of compiling again: the e2e phase 833 →
   * 766 s over the same 53 files on this 2-core machine (round 10).
   */
  context: [
    async ({ browser }, use) => {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      // Nothing leaves the machine: outside requests fail at the browser's dead proxy (CHROMIUM_ARGS)
      // and are reported by the page fixture. No `context.route` here: it would turn the cache off.
      // The guided start of a first visit is tested on its own (course.e2e.ts); elsewhere it was
      // "seen". Built-in lessons ask questions that hold Run: tests that are not about lessons run
      // straight through (as with "Stop at questions" off); lesson tests turn it on in the Course tab.
      // Init scripts run in every frame: the user-code sandbox frame has an opaque origin and no storage.
      await context.addInitScript(() => {
        if (window !== window.top) return;
        localStorage.setItem('hp.welcomed', '1');
        if (localStorage.getItem('hp.holdQuestions') === null) localStorage.setItem('hp.holdQuestions', '0');
        // Scripted replies come at once (Settings → Scripted replies: instant), not a few ms apart per
        // event (one 400-event lesson: 4.4 → 2.2 s, measured once in round 11). A test about a reply as it streams
        // picks "streamed" in Settings (`replay-pace`), as a visitor would.
        if (localStorage.getItem('hp.modelPrefs') === null) localStorage.setItem('hp.modelPrefs', '{"replayPace":"instant"}');
      });
      await use(context);
      await context.close();
    },
    { scope: 'file' },
  ],
  page: async ({ context, task }, use) => {
    const page = await context.newPage();
    watchConsole(page);
    await use(page);
    const errors = unexpectedConsoleErrors(page);
    if (task.result?.state === 'fail' || errors.length > 0) {
      mkdirSync(resultsDir, { recursive: true });
      const path = screenshotName(task.file.name, task.name);
      await page.screenshot({ path, fullPage: true }).catch(() => undefined);
      console.error(`screenshot of the failed test: ${path}`);
    }
    await resetContext(context);
    if (task.result?.state === 'fail') {
      if (errors.length > 0) console.error(`page errors during the failed test:\n  ${errors.join('\n  ')}`);
    } else {
      expectNoConsoleErrors(page);
    }
  },
});

export { expect, inject } from 'vitest';
export type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

/**
 * The bytes of a finished download. Tests connect to the run's one browser (see `launchBrowser`),
 * where `download.path()` is not available: the file is on the browser's side, so read it through
 * the connection.
 */
export async function downloadBytes(download: import('playwright-core').Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
