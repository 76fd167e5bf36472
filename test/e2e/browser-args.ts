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
