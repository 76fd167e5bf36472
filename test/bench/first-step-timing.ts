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
export function clickStepInUsableFrame(context: BrowserContext): Promise<void> {
  return clickInUsableFrame(context, { button: 'btn-step', row: '[data-testid="event-row"]', report: REPORT });
}

/**
 * The page script of the two above: in the first frame Step is enabled (and `button` too), click
 * `button` and report (`console.debug`) the ms until a new event row matching `row` is on screen.
 * `prelude` runs first (what the page should find in its storage).
 */
async function clickInUsableFrame(context: BrowserContext, o: { button: string; row: string; report: string; prelude?: string }): Promise<void> {
  await context.addInitScript(`(() => {
    if (window !== window.top) return;
    ${o.prelude ?? ''}
    const rows = () => document.querySelectorAll('[data-testid="event-list"] ${o.row}').length;
    const frame = () => {
      const step = document.querySelector('[data-testid="btn-step"]');
      const button = document.querySelector('[data-testid="${o.button}"]');
      if (!step || step.disabled || !button || button.disabled) return requestAnimationFrame(frame);
      const before = rows();
      const t0 = performance.now();
      const observer = new MutationObserver(() => {
        if (rows() > before) {
          observer.disconnect();
          console.debug('${o.report} ' + (performance.now() - t0));
        }
      });
      observer.observe(document.body, { childList: true, subtree: true });
      button.click();
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
  return reportOn(page, REPORT);
}

/** The number a page's `console.debug(\`${report} <ms>\`)` reports (at most 60 s). */
function reportOn(page: Page, report: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      page.off('console', onMessage);
      reject(new Error(`no ${report} report within 60 s`));
    }, 60_000);
    const onMessage = (msg: { text(): string }) => {
      const text = msg.text();
      if (!text.startsWith(`${report} `)) return;
      clearTimeout(timer);
      page.off('console', onMessage);
      resolve(Number(text.slice(report.length + 1)));
    };
    page.on('console', onMessage);
  });
}

/** The console message by which a page of {@link clickRunInUsableFrame} reports its time. */
const RUN_REPORT = 'hp-run-in-frame';

/**
 * Makes every page `context` opens click Run in the very animation frame Step is first enabled and
 * report the time from that click to the first \`tool.result\` row: the first command, which (unlike a
 * first Step) needs the sandbox up. Lesson questions are turned off so Run plays through (as the e2e
 * tests do); the guided start is marked seen. Read it with {@link runInUsableFrame}.
 */
export function clickRunInUsableFrame(context: BrowserContext): Promise<void> {
  return clickInUsableFrame(context, {
    button: 'btn-run',
    row: '[data-testid="event-row"][data-type="tool.result"]',
    report: RUN_REPORT,
    prelude: "localStorage.setItem('hp.welcomed', '1'); localStorage.setItem('hp.holdQuestions', '0');",
  });
}

/** The time {@link clickRunInUsableFrame} reports on `page` (call before it navigates). */
export function runInUsableFrame(page: Page): Promise<number> {
  return reportOn(page, RUN_REPORT);
}
