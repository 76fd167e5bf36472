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

/** The console message by which a page of {@link clickStepInUsableFrame} reports its time. */
const REPORT = 'hp-step-in-frame';

/**
 * Makes every page `context` opens click Step in the very animation frame it is first enabled (the
 * click of a visitor waiting for it) and report the time from that click to the first event row
 * (read it with {@link stepInUsableFrame}). {@link firstStep} clicks from the bench process instead:
 * on a cold page still busy with what it loads at idle, its click lands a few hundred ms after that frame.
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
          console.debug('${REPORT} ' + (performance.now() - t0));
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
      step.click();
    };
    requestAnimationFrame(frame);
  })()`);
}

/**
 * The time {@link clickStepInUsableFrame} reports on `page`: call it before the page navigates. It
 * listens for the page's console message rather than asking the page (`waitForFunction`), which
 * would compile Playwright's injected script on the page's main thread inside the very window it
 * times (~30 ms of a cold page's Step, measured in a trace).
 */
export function stepInUsableFrame(page: Page): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      page.off('console', onMessage);
      reject(new Error(`no ${REPORT} report within 60 s`));
    }, 60_000);
    const onMessage = (msg: { text(): string }) => {
      const text = msg.text();
      if (!text.startsWith(`${REPORT} `)) return;
      clearTimeout(timer);
      page.off('console', onMessage);
      resolve(Number(text.slice(REPORT.length + 1)));
    };
    page.on('console', onMessage);
  });
}
