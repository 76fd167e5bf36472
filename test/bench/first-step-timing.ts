/**
 * The first Step as a visitor sees it, timed in the page: shared by `first-screen.ts` and
 * `first-step-cpu.ts`. No vitest imports (the benches run under plain tsx).
 */
import type { Page } from 'playwright-core';

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
