/**
 * How this machine launches Debian's Chromium, shared by the e2e setup (`browser.ts`,
 * `global-setup.ts`) and the first-screen bench (`test/bench/first-screen.ts`). No vitest imports:
 * the bench runs under plain tsx.
 */
import { existsSync } from 'node:fs';

/**
 * Flags measured in TOOLCHAIN.md: headless, no GPU, and no background calls to the internet.
 * Nothing leaves the machine: every request that is not to loopback goes to a proxy on the
 * discard port, where nothing listens, and fails at once (Chromium never proxies loopback). This
 * replaces a `context.route` guard: a route makes Playwright intercept every request through the
 * test process and turns the HTTP cache off, so each reload and lazy chunk was fetched and
 * compiled again. Tests still see and report such requests (`watchConsole`).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--proxy-server=http://127.0.0.1:9',
];

/**
 * The e2e suite's browser: `CHROMIUM_ARGS` with V8's optimizing compilers off (TurboFan and
 * Maglev; the interpreter and the baseline compiler stay). A test's page lives for a few seconds
 * and the suite loads ~275 of them, so optimizing hot functions costs more CPU (on V8's background
 * threads, beside the renderer) than it saves, on a machine where the e2e phase is CPU-bound. Four
 * e2e files (25 tests), CPU of the whole run read from a cgroup, alternated: 101.8 / 97.5 / 105.7 /
 * 100.5 s as Chrome ships, 96.3 / 90.2 / 96.5 / 99.4 / 93.7 s with both off (−6 %); Maglev alone
 * off 107.5 s, single-threaded GC beside it 97.6 / 96.5 s (no gain). What the tests check (the
 * page's behaviour) does not depend on a compiler tier. The benches keep `CHROMIUM_ARGS`: they time
 * what a visitor's browser does.
 */
export const E2E_CHROMIUM_ARGS = [...CHROMIUM_ARGS, '--js-flags=--no-opt --no-maglev'];

/**
 * `CHROMIUM_PATH`, else Debian's headless build (`apt-get install chromium-headless-shell`: no
 * desktop shell, about a third less CPU per e2e file on a 2-core machine), else Debian's
 * `/usr/bin/chromium`; null when none exists. `prefer: 'desktop'` (the first-screen bench, which
 * times what a visitor's browser does) tries `/usr/bin/chromium` before the headless build.
 */
export function chromiumPath(prefer: 'headless' | 'desktop' = 'headless'): string | null {
  const builds = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
  if (prefer === 'desktop') builds.reverse();
  return [process.env.CHROMIUM_PATH, ...builds].filter((p): p is string => !!p).find((p) => existsSync(p)) ?? null;
}
