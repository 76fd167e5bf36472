/**
 * `npm run dev` is one of the two commands a newcomer types (README): the dev server must serve a
 * playground that runs, not only one that paints. Vite pre-bundles dependencies in dev, where the
 * build's plugins do not run — just-bash's `parse` export (`sandbox/justbash/parser-export.ts`)
 * was missing there, and every run ended in "The run failed unexpectedly" while the built app,
 * which every other test drives, was fine.
 */
import { expect, test } from './browser.ts';
import { rows, selectScenario, waitForStatus } from './app.ts';
import { startViteDev, type ServerProcess } from './servers.ts';

const repoRoot = new URL('../..', import.meta.url).pathname;
let dev: ServerProcess | null = null;

test.afterAll(async () => {
  await dev?.stop();
});

test('the dev server serves a playground whose scenario runs to the end, Bash judged on just-bash’s parser', { timeout: 180_000 }, async ({ page }) => {
  dev = await startViteDev(repoRoot);
  await page.goto(`${dev.url}/`);
  await page.getByTestId('scenario-picker').waitFor({ timeout: 120_000 });
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done', 'error');
  expect((await page.getByTestId('notice').allTextContents()).join(' '), 'no failure notice').not.toMatch(/failed/i);
  expect(await page.getByTestId('run-status').textContent()).toContain('done');
  // The scenario's deny rule decided a Bash call: the permission check ran (on the page's parser).
  expect(await rows(page).and(page.locator('[data-type="permission.decision"]')).count()).toBeGreaterThan(0);
});
