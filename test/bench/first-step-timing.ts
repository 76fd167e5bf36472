/**
 * The first Step as a visitor sees it, timed in the page: shared by `first-screen.ts` and
 * `first-step-cpu.ts`. No vitest imports (the benches run under plain tsx).
 */
import type { BrowserContext, Page } from 'playwright-core';

/** Click Step and time, in the page, until the first new event row is in the DOM. */
export async function firstStep(page: Page): Promise<number> {
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

/**
 * Makes every page `context` opens click Step in the very animation frame it is first enabled (the
 * click of a visitor waiting for it) and record, in the page, the time from that click to the first
 * event row (`__hpStepInFrame`). {@link firstStep} clicks from the bench process instead: on a cold
 * page still busy with what it loads at idle, its click lands a few hundred ms after that frame.
 */
export async function clickStepInUsableFrame(context: BrowserContext): Promise<void> {
  await context.addInitScript(`(() => {
    if (window !== window.top) return;
    const rows = () => document.querySelectorAll('[data-testid="event-list"] [data-testid="event-row"]').length;
    const frame = () => {
      const step = document.querySelector('[data-testid="btn-step"]');
      if (!step || step.disabled) return requestAnimationFrame(frame);
      const before = rows();
      const t0 = performance.now();
      const observer = new MutationObserver(() => {
        if (rows() > before) {
          observer.disconnect();
          window.__hpStepInFrame = performance.now() - t0;
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
      step.click();
    };
    requestAnimationFrame(frame);
  })()`);
}

/** The time {@link clickStepInUsableFrame} recorded on `page`, once its first event row is on screen. */
export async function stepInUsableFrame(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => (window as { __hpStepInFrame?: number }).__hpStepInFrame ?? 0, undefined, { timeout: 60_000 });
  return (await handle.jsonValue()) as number;
}
