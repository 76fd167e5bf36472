/**
 * The first screen (issue 23 §4, issue 24 §3): `npx tsx test/bench/first-screen.ts`, part of
 * `npm run bench`. It builds nothing: it serves the existing `dist/` (run `npx vite build` first)
 * with `vite preview`, opens it in Debian's Chromium and prints, as medians over a few fresh
 * browser profiles:
 * - the entry's size: the entry chunk and every chunk it imports statically, raw and gzip;
 * - first paint (first-contentful-paint) and cold time-to-usable: navigation start to the Step
 *   button enabled, empty HTTP cache and storage;
 * - warm time-to-usable: the same after a reload (HTTP cache full);
 * - first Step: the click to the first event row on screen, clicked the moment Step is enabled on
 *   the cold page, and on the reloaded page once it has settled.
 * Targets (issue 23): usable under 1 s on a quiet machine, first Step ≤ 150 ms. Printed, not asserted.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/browser-args.ts';
import { startVitePreview } from '../e2e/servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// `--dist <dir>` measures another build (e.g. an older commit's, for before/after numbers).
const distArg = process.argv.indexOf('--dist');
const DIST = distArg > 0 ? resolve(process.argv[distArg + 1]!) : join(ROOT, 'dist');
const RUNS = 3;

/** The entry chunk and its static imports (what the browser must fetch before the first paint). */
function entrySize(): { files: number; raw: number; gzip: number } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/?([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error('dist/index.html has no module script');
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(DIST, file), 'utf8');
    // Static imports of sibling chunks (`import{a as b}from"./x.js"`); dynamic `import("./x.js")` is not matched.
    for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w${},\s*]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
      const path = join(dirname(file), m[1]!);
      if (existsSync(join(DIST, path))) queue.push(path);
    }
  }
  let raw = 0;
  let gzip = 0;
  for (const f of seen) {
    const bytes = readFileSync(join(DIST, f));
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return { files: seen.size, raw, gzip };
}

/** Navigation start to the Step button enabled, measured in the page (no round trips in the number). */
async function timeToUsable(page: Page): Promise<number> {
  await page.waitForFunction(() => (document.querySelector('[data-testid="btn-step"]') as HTMLButtonElement | null)?.disabled === false, undefined, {
    polling: 'raf',
    timeout: 60_000,
  });
  return page.evaluate(() => performance.now());
}

/** Navigation start to the first contentful paint (what the person first sees). */
async function firstPaint(page: Page): Promise<number> {
  return page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
}

/** Let the page go idle (what it loads at idle time after the paint, e.g. the harness, arrives meanwhile). */
async function settle(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => requestIdleCallback(() => setTimeout(resolve, 300), { timeout: 3000 }))`);
}

/** Click Step and time, in the page, until the first new event row is in the DOM. */
async function firstStep(page: Page): Promise<number> {
  // A string, not a function: tsx's keepNames would wrap named inner functions in a `__name` the page lacks.
  return page.evaluate(`new Promise((resolve) => {
    const count = () => document.querySelectorAll('[data-testid="event-list"] [data-testid="event-row"]').length;
    const before = count();
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (count() > before) {
        observer.disconnect();
        resolve(performance.now() - t0);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    document.querySelector('[data-testid="btn-step"]').click();
  })`) as Promise<number>;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

async function main(): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) throw new Error('No dist/: run `npx vite build` first (this bench builds nothing).');
  const executablePath = chromiumPath('desktop');
  if (!executablePath) throw new Error('Chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH.');
  const size = entrySize();
  const server = await startVitePreview(ROOT, DIST);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const paint: number[] = [];
  const cold: number[] = [];
  const warm: number[] = [];
  const step: number[] = [];
  const stepAtUsable: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      // A fresh context: empty HTTP cache, IndexedDB and localStorage (a first visit), Step clicked
      // the moment it is enabled (it may wait for what loads at idle, with "Loading the harness…").
      const first = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page1 = await first.newPage();
      await page1.goto(`${server.url}/`);
      cold.push(await timeToUsable(page1));
      paint.push(await firstPaint(page1));
      stepAtUsable.push(await firstStep(page1));
      await first.close();
      // Another fresh profile: loaded once, then reloaded (HTTP cache full), settled, then Step.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await timeToUsable(page);
      await page.reload();
      warm.push(await timeToUsable(page));
      await settle(page);
      step.push(await firstStep(page));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  console.log(`\nFirst screen (dist/ in vite preview, Chromium, median of ${RUNS} fresh profiles; load average ${loadavg()[0]!.toFixed(2)})`);
  console.log(`| entry (static closure) | ${size.files} chunks, ${kb(size.raw)} raw, ${kb(size.gzip)} gzip |`);
  console.log(`| cold first paint (FCP) | ${median(paint).toFixed(0)} ms  [${paint.map((x) => x.toFixed(0)).join(', ')}] |`);
  console.log(`| cold time-to-usable (Step enabled) | ${median(cold).toFixed(0)} ms  [${cold.map((x) => x.toFixed(0)).join(', ')}] |`);
  console.log(`| warm time-to-usable (reload) | ${median(warm).toFixed(0)} ms  [${warm.map((x) => x.toFixed(0)).join(', ')}] |`);
  console.log(`| first Step clicked at usable, cold (click → first event row) | ${median(stepAtUsable).toFixed(0)} ms  [${stepAtUsable.map((x) => x.toFixed(0)).join(', ')}] |`);
  console.log(`| first Step, warm page settled (click → first event row) | ${median(step).toFixed(0)} ms  [${step.map((x) => x.toFixed(0)).join(', ')}] |`);
  console.log('Targets: usable < 1000 ms on a quiet machine; first Step ≤ 150 ms. Printed, not asserted.');
}

await main();
