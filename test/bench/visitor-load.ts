/**
 * A cold load as a visitor's browser does it, with no DevTools session on the page (`pipe-browser.ts`
 * says why that matters): the first-screen bench's "visitor's browser" rows. No vitest imports.
 *
 * With no session on the page, nothing can be injected into it, so the bench serves a copy of the
 * build whose index.html loads one more script, `hp-visitor-probe.js` (0.9 kB, parser-blocking, while
 * the preload scanner already fetches the entry beside it), before the app's own. The
 * probe does what `usable-timing.ts` and `first-step-timing.ts` do through Playwright: it notes the
 * first animation frame with Step enabled, clicks Step in that very frame (a visitor waiting for
 * it), notes when the first event row is in the DOM, and then writes what it saw, with the app's
 * User Timing marks, into the tab's title for the bench to read from the browser process.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { navigate, openBlankTab, waitForTitle, type PipeBrowser } from './pipe-browser.ts';

/** What one visitor's load reports (ms from navigation start; NaN for a mark the build does not set). */
export type VisitorLoad = { usable: number; step: number; evaluated: number; mounted: number; workerStarted: number; sandboxReady: number; harnessLoaded: number };

const TITLE = 'hp-visitor ';

/** The probe: a classic script (it runs during parsing, before the module entry), `self` under the app's CSP. */
const PROBE = `(() => {
  const rows = () => document.querySelectorAll('[data-testid="event-list"] [data-testid="event-row"]').length;
  const frame = () => {
    const step = document.querySelector('[data-testid="btn-step"]');
    if (!step || step.disabled) return requestAnimationFrame(frame);
    const usable = performance.now();
    const before = rows();
    const mark = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
    const report = (step) => {
      document.title = ${JSON.stringify(TITLE)} + JSON.stringify({
        usable, step,
        evaluated: mark('hp:modules-evaluated'), mounted: mark('hp:mounted'),
        workerStarted: mark('hp:sandbox-worker-started'), sandboxReady: mark('hp:sandbox-ready'), harnessLoaded: mark('hp:harness-loaded'),
      });
    };
    const observer = new MutationObserver(() => {
      if (rows() <= before) return;
      observer.disconnect();
      const step = performance.now() - usable;
      // The first event no longer waits for the sandbox to be up: its mark may come after (at most 10 s).
      if (mark('hp:sandbox-ready') !== null) return report(step);
      const marks = new PerformanceObserver(() => {
        if (mark('hp:sandbox-ready') === null) return;
        marks.disconnect();
        report(step);
      });
      marks.observe({ type: 'mark' });
      setTimeout(() => { marks.disconnect(); report(step); }, 10000);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    step.click();
  };
  requestAnimationFrame(frame);
})();
`;

/** A copy of `dist` whose index.html runs the probe first (the caller removes the folder). */
export function probedDist(dist: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-visitor-dist-'));
  cpSync(dist, dir, { recursive: true });
  writeFileSync(join(dir, 'hp-visitor-probe.js'), PROBE);
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  // After the charset and the CSP (which allows same-origin scripts), before the module entry.
  const probed = html.replace(/<script type="module"/, '<script src="/hp-visitor-probe.js"></script>\n    <script type="module"');
  if (probed === html) throw new Error(`${dist}/index.html has no module script to put the probe before`);
  writeFileSync(join(dir, 'index.html'), probed);
  return dir;
}

/**
 * One cold load of `url` (served from a {@link probedDist}) in a fresh profile's tab opened
 * beforehand, the browser quiet (`quiet`), as a visitor following a link from an open tab.
 */
export async function visitorLoad(browser: PipeBrowser, url: string, quiet: () => Promise<void>): Promise<VisitorLoad> {
  const { contextId, targetId } = await openBlankTab(browser);
  try {
    await quiet();
    await navigate(browser, targetId, url);
    const title = await waitForTitle(browser, targetId, (t) => t.startsWith(TITLE));
    const seen = JSON.parse(title.slice(TITLE.length)) as Record<keyof VisitorLoad, number | null>;
    const n = (v: number | null) => (v === null ? Number.NaN : v);
    return { usable: n(seen.usable), step: n(seen.step), evaluated: n(seen.evaluated), mounted: n(seen.mounted), workerStarted: n(seen.workerStarted), sandboxReady: n(seen.sandboxReady), harnessLoaded: n(seen.harnessLoaded) };
  } finally {
    await browser.send('Target.disposeBrowserContext', { browserContextId: contextId }).catch(() => undefined);
  }
}
