/**
 * What one fresh page costs Chromium, and the first Step (issue 23 §4): `npx tsx
 * test/bench/first-step-cpu.ts --dist A [--dist B …]` serves each built app (default `dist/`) with
 * `vite preview` and, alternating between them round by round so the machine's load falls on all
 * alike, prints medians of:
 * - CPU (user + system, every Chromium process of this bench, from /proc) from navigation to Step
 *   enabled, then over the 3 s after it (what the page does at idle once usable), then for the
 *   first Step (click → first event row, then until the page is idle again), and the three
 *   together (the split between the first two moves with the machine's load; the sum does not);
 * - first Step clicked the moment Step is enabled (cold), and on a page that sat idle for those 3 s.
 * CPU is what every e2e test pays for its fresh page on a 2-core machine; time is what a visitor
 * sees. Printed, never asserted. Run under `flock /tmp/bench.lock`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/browser-args.ts';
import { firstStep } from './first-step-timing.ts';
import { startVitePreview, type ServerProcess } from '../e2e/servers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dists = process.argv.flatMap((a, i) => (a === '--dist' ? [resolve(process.argv[i + 1]!)] : []));
if (dists.length === 0) dists.push(join(ROOT, 'dist'));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const IDLE_MS = 3000;
const TICK_MS = 1000 / 100; // USER_HZ

/** utime + stime (ms) of every process below this one that is not node (the preview servers). */
function chromiumCpuMs(): number {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  const ticks = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      parent.set(Number(d), Number(f[1]));
      comm.set(Number(d), stat.slice(stat.indexOf('(') + 1, close));
      ticks.set(Number(d), Number(f[11]) + Number(f[12]));
    } catch {
      // Gone meanwhile.
    }
  }
  let sum = 0;
  for (const [pid, t] of ticks) {
    if (comm.get(pid) === 'node') continue;
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        sum += t;
        break;
      }
    }
  }
  return sum * TICK_MS;
}

async function usable(page: Page): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('[data-testid="btn-step"]') as HTMLButtonElement | null)?.disabled === false, undefined, {
    polling: 'raf',
    timeout: 60_000,
  });
}


/** Until Step is enabled again and the page has had an idle moment. */
async function stepDone(page: Page): Promise<void> {
  await usable(page);
  await page.evaluate(`new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 }))`);
}

type Sample = { load: number; idle: number; step: number; total: number; stepCold: number; stepSettled: number };

async function round(browser: import('playwright-core').Browser, url: string): Promise<Sample> {
  // Cold: a fresh profile, Step clicked the moment it is enabled.
  const a = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const pa = await a.newPage();
  await pa.goto(`${url}/`);
  await usable(pa);
  const stepCold = await firstStep(pa);
  await a.close();
  // A fresh profile (as each e2e test gets): load, idle, first Step, with Chromium's CPU around each.
  const c = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await c.newPage();
  const c0 = chromiumCpuMs();
  await page.goto(`${url}/`);
  await usable(page);
  const c1 = chromiumCpuMs();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const c2 = chromiumCpuMs();
  const stepSettled = await firstStep(page);
  await stepDone(page);
  const c3 = chromiumCpuMs();
  await c.close();
  return { load: c1 - c0, idle: c2 - c1, step: c3 - c2, total: c3 - c0, stepCold, stepSettled };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const executablePath = chromiumPath('desktop');
  if (!executablePath) throw new Error('Chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH.');
  for (const d of dists) if (!existsSync(join(d, 'index.html'))) throw new Error(`${d}/index.html not found: build it first (npx vite build --outDir …).`);
  const servers: ServerProcess[] = [];
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const samples = dists.map(() => [] as Sample[]);
  const loads: number[] = [];
  try {
    for (const d of dists) servers.push(await startVitePreview(ROOT, d));
    for (let r = 0; r < ROUNDS; r++) {
      loads.push(loadavg()[0]!);
      for (let i = 0; i < dists.length; i++) samples[i]!.push(await round(browser, servers[i]!.url));
    }
  } finally {
    await browser.close();
    for (const s of servers) await s.stop();
  }
  console.log(`\nOne fresh page in Chromium: CPU (user+sys, all Chromium processes) and first Step; median of ${ROUNDS} rounds, builds alternated; load average ${loads.map((l) => l.toFixed(1)).join(', ')}`);
  console.log('| build | CPU to usable | CPU idle 3 s after | CPU first Step | CPU all three | first Step cold click | first Step settled |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  dists.forEach((d, i) => {
    const s = samples[i]!;
    const col = (k: keyof Sample) => `${median(s.map((x) => x[k])).toFixed(0)} ms [${s.map((x) => x[k].toFixed(0)).join(', ')}]`;
    console.log(`| ${d} | ${col('load')} | ${col('idle')} | ${col('step')} | ${col('total')} | ${col('stepCold')} | ${col('stepSettled')} |`);
  });
}

await main();
