/**
 * Where a cold first screen's main thread goes, by source module: `npx tsx
 * test/bench/first-screen-profile.ts [--runs N] [--dist DIR] [--first-step]`. Not part of `npm run bench` (it
 * builds): the first-screen bench says how long, this says what to cut.
 *
 * It builds the app unminified (`vite build --minify false`, into a temp folder unless `--dist`
 * names one already built that way), where every module starts with a `// src/…` or
 * `// node_modules/…` comment; loads it cold (a fresh browser profile) with V8's sampling profiler
 * on until the Step button is enabled (with `--first-step`, on through a Step clicked then, to its first
 * event row: the harness's load and the run's start); maps each sample's line back to its module, and prints:
 * - self time by module (node_modules folded to their package) and the browser's own buckets
 *   (`(program)`: parse, compile, style, layout; `(garbage collector)`; `(idle)`);
 * - inclusive time by source module (a module counts once per stack: what its code started);
 * - a timeline in 50 ms slices: the outermost source module on the stack (the work's entry).
 * Means over the runs. Minified and unminified builds differ a little in size, not in kind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/browser-args.ts';
import { startVitePreview } from '../e2e/servers.ts';
import { timeToUsable, watchUsable } from './usable-timing.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const arg = (flag: string) => (process.argv.includes(flag) ? process.argv[process.argv.indexOf(flag) + 1] : undefined);
const RUNS = Number(arg('--runs') ?? 3);
/** `--first-step`: profile on through a Step clicked at usable, to its first event row (what the harness's load costs). */
const FIRST_STEP = process.argv.includes('--first-step');
/** `--settled-step`: load the page, let it settle (the harness loaded, then 1.5 s), and profile only a Step, to its first event row. */
const SETTLED_STEP = process.argv.includes('--settled-step');
const SLICE_MS = 50;

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** For each built chunk, the line where each module's code starts (the build's `// path` comments). */
function moduleStarts(dist: string): Map<string, { line: number; mod: string }[]> {
  const out = new Map<string, { line: number; mod: string }[]>();
  for (const f of readdirSync(join(dist, 'assets'))) {
    if (!f.endsWith('.js')) continue;
    const starts: { line: number; mod: string }[] = [];
    readFileSync(join(dist, 'assets', f), 'utf8')
      .split('\n')
      .forEach((l, i) => {
        const m = /^\/\/ ((?:src|node_modules)\/\S+)/.exec(l);
        if (m) starts.push({ line: i, mod: m[1]!.replace(/^node_modules\/((?:@[^/]+\/)?[^/]+).*/, 'npm:$1') });
      });
    out.set(f, starts);
  }
  return out;
}

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const NATIVE = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

async function main(): Promise<void> {
  const given = arg('--dist');
  const dist = given ? resolve(given) : mkdtempSync(join(tmpdir(), 'hp-profile-dist-'));
  if (!given) {
    process.stdout.write('building unminified… ');
    execFileSync(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--minify', 'false', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, stdio: 'ignore' });
    process.stdout.write('done\n');
  }
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist} has no index.html`);
  const starts = moduleStarts(dist);
  const moduleOf = (url: string, line: number): string | null => {
    const list = starts.get(url.replace(/.*\/assets\//, ''));
    if (!list) return null;
    let found: string | null = null;
    for (const s of list) {
      if (s.line > line) break;
      found = s.mod;
    }
    return found;
  };
  const executablePath = chromiumPath('desktop');
  if (!executablePath) throw new Error('Chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH.');
  const server = await startVitePreview(ROOT, dist);
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const slices = new Map<number, Map<string, number>>();
  const usable: number[] = [];
  try {
    for (let r = 0; r < RUNS; r++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await watchUsable(context);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      if (!SETTLED_STEP) await cdp.send('Profiler.start');
      await page.goto(`${server.url}/`);
      usable.push(await timeToUsable(page));
      if (SETTLED_STEP) {
        await page.waitForFunction(() => performance.getEntriesByName('hp:harness-loaded').length > 0);
        await page.waitForTimeout(1500);
        await cdp.send('Profiler.start');
      }
      if (FIRST_STEP || SETTLED_STEP) {
        await page.getByTestId('btn-step').click();
        await page.locator('[data-testid="event-list"] [data-testid="event-row"]').first().waitFor();
      }
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
      await context.close();
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      let t = 0;
      profile.samples.forEach((id, i) => {
        const dt = (profile.timeDeltas[i] ?? 0) / 1000 / RUNS;
        t += (profile.timeDeltas[i] ?? 0) / 1000;
        const leaf = byId.get(id)!.callFrame;
        const native = NATIVE.has(leaf.functionName) ? leaf.functionName : null;
        add(self, native ?? moduleOf(leaf.url, leaf.lineNumber) ?? (leaf.url ? leaf.url.replace(/.*\//, '') : `(native) ${leaf.functionName}`), dt);
        const onStack = new Set<string>();
        let outer: string | null = null;
        for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
          const f = byId.get(cur)!.callFrame;
          const mod = f.url ? moduleOf(f.url, f.lineNumber) : null;
          if (!mod?.startsWith('src/')) continue;
          outer = mod;
          if (!onStack.has(mod)) add(inclusive, mod, dt);
          onStack.add(mod);
        }
        const slice = Math.floor(t / SLICE_MS) * SLICE_MS;
        if (!slices.has(slice)) slices.set(slice, new Map());
        add(slices.get(slice)!, native ?? outer ?? '(libraries)', dt);
      });
    }
  } finally {
    await browser.close();
    await server.stop();
    if (!given) rmSync(dist, { recursive: true, force: true });
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\n${SETTLED_STEP ? 'A Step on a settled page, to its first event' : `Cold first screen${FIRST_STEP ? ' and a Step clicked at usable, to its first event' : ''}`}, ${RUNS} fresh profiles, unminified build: usable at ${usable.map((u) => u.toFixed(0)).join(', ')} ms (profiler on: slower than the bench)`);
  console.log('\nSelf time by module (ms, mean per load)');
  for (const [k, v] of top(self, 30)) console.log(`| ${v.toFixed(1).padStart(6)} | ${k} |`);
  console.log('\nInclusive time by source module (what its code started)');
  for (const [k, v] of top(inclusive, 30)) console.log(`| ${v.toFixed(1).padStart(6)} | ${k} |`);
  console.log(`\nTimeline from the profiler's start (just before navigation), ${SLICE_MS} ms slices: the most time first`);
  for (const [slice, m] of [...slices].sort((a, b) => a[0] - b[0])) {
    const parts = top(m, 4).map(([k, v]) => `${k.replace(/^src\//, '')} ${v.toFixed(0)}`);
    console.log(`| ${String(slice).padStart(5)} | ${parts.join(' · ')} |`);
  }
}

await main();
