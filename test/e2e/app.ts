/**
 * Page helpers for the Harness Playground, written against the data-testid conventions in
 * /work/helpers/api.md. Every wait here waits for a state of the page, never for time.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export type RunStatus = 'idle' | 'running' | 'paused' | 'done' | 'error' | 'aborted';

/** Open the app and wait until it is interactive (the scenario picker is there). */
export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(`${inject('baseUrl')}${path}`);
  await page.getByTestId('scenario-picker').waitFor();
}

/**
 * Lesson questions hold Run (the fixture turns that off for tests not about lessons): call before
 * `openApp` in a test that stops at a question.
 */
export async function holdAtQuestions(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (window === window.top) localStorage.setItem('hp.holdQuestions', '1');
  });
}

export function rows(page: Page): Locator {
  return page.getByTestId('event-list').getByTestId('event-row');
}

/** Wait for exactly `n` event rows. */
export async function waitForRowCount(page: Page, n: number): Promise<void> {
  await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBe(n);
}

/** `data-seq` of every row, in DOM order. */
export async function rowSeqs(page: Page): Promise<number[]> {
  return rows(page).evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))));
}

/** `data-type` of every row, in DOM order. */
export async function rowTypes(page: Page): Promise<string[]> {
  return rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-type') ?? ''));
}

export async function runStatus(page: Page): Promise<string> {
  return ((await page.getByTestId('run-status').textContent()) ?? '').trim();
}

/** Wait for `run-status` to read one of `statuses`. */
export async function waitForStatus(page: Page, ...statuses: RunStatus[]): Promise<void> {
  await expect
    .poll(() => runStatus(page), { timeout: 45_000, message: `run-status should become ${statuses.join('|')}` })
    .toSatisfy((s: string) => (statuses as string[]).includes(s));
}

export async function selectScenario(page: Page, id: string): Promise<void> {
  await page.getByTestId('scenario-picker').selectOption(id);
}

/** Open the app, pick a built-in scenario and Run it until it is done. */
export async function runToEnd(page: Page, id: string): Promise<void> {
  await openApp(page);
  await selectScenario(page, id);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
}

/** Move focus out of any input so the keyboard shortcuts apply. */
export async function blurInputs(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** The loop-diagram nodes that are lit (`data-active="true"`). */
export async function activeNodes(page: Page): Promise<string[]> {
  return page
    .getByTestId('loop-diagram')
    .locator('[data-node][data-active="true"]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-node') ?? ''));
}

/**
 * Press Step once (with the button, or with a key) and wait for that step to finish: exactly one
 * more row, and the Step button usable again. Returns the new row count.
 */
export async function stepOnce(page: Page, via: 'button' | 'key' = 'button', key = 's'): Promise<number> {
  const before = await rows(page).count();
  if (via === 'button') await page.getByTestId('btn-step').click();
  else await page.keyboard.press(key);
  await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(before);
  // The step is over when Step is usable again (or the run ended); only then is the count final.
  await expect
    .poll(
      async () => (await page.getByTestId('btn-step').isEnabled()) || ['done', 'error', 'aborted'].includes(await runStatus(page)),
      { timeout: 30_000 },
    )
    .toBe(true);
  const after = await rows(page).count();
  expect(after, 'one Step must add exactly one event row').toBe(before + 1);
  return after;
}

/** The workspace (header switch) that holds each side-panel tab: mirrors src/ui/spaces/spaces.ts. */
const TAB_SPACE: Record<string, 'learn' | 'inspect' | 'build' | 'team'> = {
  scenario: 'learn',
  lesson: 'learn',
  stepper: 'learn',
  course: 'learn',
  context: 'inspect',
  hooks: 'inspect',
  memory: 'inspect',
  sessions: 'inspect',
  skills: 'inspect',
  workbench: 'build',
  tools: 'build',
  mcp: 'build',
  settings: 'build',
  team: 'team',
  todos: 'team',
  tasks: 'team',
  merge: 'build',
};

/** Switch to the workspace holding side-panel tab `name` (`tab-<name>`) and open that tab. */
export async function openTab(page: Page, name: string): Promise<void> {
  const space = TAB_SPACE[name];
  if (!space) throw new Error(`openTab: no workspace holds the tab "${name}"`);
  const sw = page.getByTestId(`ws-${space}`);
  if ((await sw.getAttribute('aria-pressed')) !== 'true') await sw.click();
  await page.getByTestId(`tab-${name}`).click();
  await expect.poll(() => page.getByTestId(`tab-${name}`).getAttribute('aria-selected')).toBe('true');
  // A panel loaded on first open (LazyPanel) is there before the test looks into it: a count of
  // its rows read while it still said "Loading…" would be a zero that proves nothing.
  await expect.poll(() => page.locator(`#tabpanel-${name} [data-testid="panel-loading"]`).count()).toBe(0);
}

/** Open Settings if the settings controls are not on screen yet. */
export async function openSettings(page: Page): Promise<void> {
  const status = page.getByTestId('sandbox-status');
  if (await status.isVisible()) return;
  await openTab(page, 'settings');
  await status.waitFor();
}

/**
 * Bring the Files panel on screen: Learn and Build show it; Inspect and Team do not (their width
 * goes to the panels beside the selected event, and to the agents' lanes).
 */
export async function showFiles(page: Page): Promise<void> {
  if (await page.getByTestId('file-tree').isVisible()) return;
  await page.getByTestId('ws-build').click();
  await page.getByTestId('file-tree').waitFor();
}

/** A file or folder row of the Files panel's tree, by absolute path. */
export function fileEntry(page: Page, path: string): Locator {
  return page.getByTestId('file-tree').locator(`[data-testid="file-entry"][data-path="${path}"]`);
}

/** Types `text` at the top of the file open in the editor (Monaco). */
export async function typeAtTopOfFile(page: Page, text: string): Promise<void> {
  await page.getByTestId('file-viewer').locator('.monaco-editor').waitFor();
  await page.getByTestId('file-viewer').locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.type(text);
}

export async function fileViewerText(page: Page): Promise<string> {
  const viewer = page.getByTestId('file-viewer');
  const text = await viewer.evaluate((el) => {
    const lines = el.querySelector('.view-lines');
    if (lines) {
      // Monaco renders lines absolutely positioned; order them by their top offset.
      return [...lines.querySelectorAll<HTMLElement>('.view-line')]
        .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
        .map((l) => l.textContent ?? '')
        .join('\n');
    }
    const plain = el.querySelector('[data-testid="file-viewer-plain"]') ?? el;
    return plain.textContent ?? '';
  });
  return text.replace(/\u00a0/g, ' ');
}

/**
 * Everything the page has persisted: localStorage, sessionStorage and every IndexedDB record,
 * as one JSON string — to check that a secret was not written anywhere.
 */
export async function dumpBrowserStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: Record<string, unknown> = {
      localStorage: { ...localStorage },
      sessionStorage: { ...sessionStorage },
    };
    const dbs = await indexedDB.databases();
    for (const info of dbs) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name!);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      const stores: Record<string, unknown[]> = {};
      for (const name of [...db.objectStoreNames]) {
        stores[name] = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(name, 'readonly').objectStore(name).getAll();
          req.onsuccess = () => resolve(req.result as unknown[]);
          req.onerror = () => reject(req.error);
        });
      }
      db.close();
      out[`indexedDB:${info.name}`] = stores;
    }
    return JSON.stringify(out);
  });
}
