/**
 * A teammate in a second tab (issue 13 §4), in Chromium: two pages of one browser context. The
 * lead runs in page A and spawns carol with `in_tab`; page B opens the Team tab's link, joins as
 * carol and runs her loop there. A message crosses both ways, carol's claim (asked from B, decided
 * in A) shows on A's Tasks board, her read reaches A, and closing B (pagehide → bye) marks her gone
 * in A, merges what she wrote and, after the release timeout, puts her task back on the board.
 */
import type { Page } from 'playwright-core';
import { expect, shotPath, test, watchConsole, expectNoConsoleErrors, unexpectedConsoleErrors } from './browser.ts';
import { seriousViolations } from './axe.ts';
import { openApp, openTab, selectScenario, waitForStatus } from './app.ts';

const lane = (page: Page, name: string) => page.getByTestId('team-view').locator(`[data-testid="team-lane"][data-name="${name}"]`);
const card = (page: Page, id: string) => page.getByTestId('task-board').locator(`[data-testid="task-card"][data-task="${id}"]`);
// Screenshots for a person to look at (as teams.e2e.ts does); nothing compares them.
const SHOTS = shotPath('team-tabs');

test('a teammate joins from a second tab, works there, and its tab closing is seen in the lead’s tab', async ({ page, context }) => {
  await openApp(page);
  await selectScenario(page, 'team-other-tab');
  await page.getByTestId('btn-run').click();
  await openTab(page, 'team');
  await expect.poll(() => lane(page, 'carol').getAttribute('data-state'), { timeout: 30_000 }).toBe('idle');
  await expect.poll(() => page.getByTestId('team-where').first().textContent()).toContain('waiting for a tab');
  const link = page.getByTestId('team-join-link');
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/\?teammate=carol&team=hp-team-[a-z0-9]+&scenario=team-other-tab&lead=tab-[a-z0-9]+&key=[a-z0-9]{24,}$/);
  await page.screenshot({ path: `${SHOTS}/team-tabs-lead-waiting.png` });

  // Page B: the same origin, the same browser context; it joins at once and runs carol's loop.
  const b = await context.newPage();
  watchConsole(b);
  await b.goto(href);
  await b.getByTestId('teammate-tab').waitFor();
  // The teammate page mounts once its own chunk arrives: index.html's loading shell has given way to it.
  expect(await b.getByTestId('boot-shell').count()).toBe(0);
  await expect
    .poll(() => b.getByTestId('teammate-presence').getAttribute('data-joined'), { timeout: 30_000 })
    .toBe('yes')
    .catch(async (err: unknown) => {
      await b.screenshot({ path: `${SHOTS}/team-tabs-failed-b.png` });
      console.error('page B errors:', unexpectedConsoleErrors(b));
      throw err;
    });
  await b.getByTestId('btn-run').click();

  // A: carol joined from B, her claim shows on the board at once, and her message crossed.
  await expect.poll(() => page.getByTestId('team-where').first().getAttribute('data-tab'), { timeout: 30_000 }).toMatch(/^tab-/);
  await expect.poll(() => page.getByTestId('team-message').allTextContents(), { timeout: 30_000 }).toContainEqual(expect.stringContaining('carol → lead'));
  await openTab(page, 'tasks');
  await expect.poll(() => card(page, '1').getAttribute('data-status')).toBe('in_progress');
  expect(await card(page, '1').textContent()).toContain('owner: carol');

  // B: the lead's thanks crossed the other way and carol read it there; A's count for her goes back to 0.
  await expect.poll(() => b.getByTestId('team-message').allTextContents(), { timeout: 30_000 }).toContainEqual(expect.stringContaining('lead → carol'));
  await expect.poll(() => b.getByTestId('event-row').and(b.locator('[data-type="mailbox.read"]')).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  await openTab(page, 'team');
  await expect
    .poll(() => lane(page, 'carol').getByTestId('team-unread').getAttribute('data-unread'), { timeout: 30_000 })
    .toBe('0')
    .catch(async (err: unknown) => {
      // The page fixture shoots page A on failure; page B is shot here.
      await b.screenshot({ path: `${SHOTS}/team-tabs-failed-b.png` });
      console.error('page B errors:', unexpectedConsoleErrors(b));
      throw err;
    });
  // carol's events are stepped in B, not in A.
  expect(await b.locator('[data-testid="event-row"][data-agent="teammate-carol"]').count()).toBeGreaterThan(5);
  expect(await page.locator('[data-testid="event-row"][data-agent="teammate-carol"][data-type="model.request"]').count()).toBe(0);
  await b.screenshot({ path: `${SHOTS}/team-tabs-teammate.png` });
  expect(await seriousViolations(b), 'teammate tab').toEqual([]);
  expectNoConsoleErrors(b);

  // Close B: pagehide says bye. A marks carol gone, merges her notes.txt, and after 1.5 s #1 is back.
  await b.close({ runBeforeUnload: true });
  await expect.poll(() => lane(page, 'carol').getAttribute('data-state'), { timeout: 30_000 }).toBe('gone');
  await waitForStatus(page, 'done');
  expect(await page.locator('[data-testid="event-row"][data-type="task.released"]').count()).toBe(1);
  expect(await page.locator('[data-testid="event-row"][data-type="team.ended"]').count()).toBe(1);
  await openTab(page, 'tasks');
  expect(await card(page, '1').getAttribute('data-status')).toBe('pending');
  expect(await card(page, '1').textContent()).not.toContain('owner:');
  await openTab(page, 'team');
  await page.screenshot({ path: `${SHOTS}/team-tabs-lead-after.png` });
  expect(await seriousViolations(page), 'team tab after').toEqual([]);
});
