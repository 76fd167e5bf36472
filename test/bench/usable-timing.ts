/**
 * When the first screen is usable, timed in the page: shared by `first-screen.ts` and
 * `first-screen-profile.ts`. No vitest imports (the benches run under plain tsx).
 *
 * Usable is the first animation frame whose DOM has the Step button enabled — the frame a visitor
 * could click in — read by a watcher installed before navigation (`watchUsable`). Polling from the
 * test process instead (what this bench did until round 9) could not start before `page.goto`
 * returned, i.e. before the page's load event plus a round trip: on a page usable before its load
 * event that read ~150–250 ms late on this machine.
 */
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Installs, for every page the context opens from now on (and every reload), a watcher that
 * records `performance.now()` at the first animation frame in which Step is enabled. A string, not
 * a function: tsx's keepNames would wrap named inner functions in a `__name` the page lacks.
 */
export async function watchUsable(context: BrowserContext): Promise<void> {
  await context.addInitScript(`(() => {
    if (window !== window.top) return;
    const frame = () => {
      const step = document.querySelector('[data-testid="btn-step"]');
      if (step && !step.disabled) window.__hpUsableAt = performance.now();
      else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
}

/** Navigation start to the first frame with Step enabled (needs `watchUsable` on the page's context). */
export async function timeToUsable(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as { __hpUsableAt?: number }).__hpUsableAt ?? 0, undefined, { timeout: 60_000 });
  return (await handle.jsonValue()) as number;
}
