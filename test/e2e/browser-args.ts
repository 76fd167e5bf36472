/**
 * How this machine launches Debian's Chromium, shared by the e2e setup (`browser.ts`,
 * `global-setup.ts`) and the first-screen bench (`test/bench/first-screen.ts`). No vitest imports:
 * the bench runs under plain tsx.
 */
import { existsSync } from 'node:fs';

/** Flags measured in TOOLCHAIN.md: headless, no GPU, and no background calls to the internet. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `CHROMIUM_PATH` or Debian's `/usr/bin/chromium`, whichever exists; null when neither does. */
export function chromiumPath(): string | null {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter((p): p is string => !!p).find((p) => existsSync(p)) ?? null;
}
