/**
 * Teams in the browser: the Team tab appears once a run has teammates and draws one lane per agent
 * (state, task, unread mail) with the messages as arrows, axe-clean in both themes; a `mailbox.*`
 * breakpoint stops at mailbox events of any agent, and Step walks teammates' events one at a time.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { seriousViolations } from './axe.ts';
import { openApp, openTab, rows, rowTypes, selectScenario, stepOnce, waitForStatus } from './app.ts';
import { continueToNext } from './stepper-app.ts';

const lanes = (page: Page) => page.getByTestId('team-view').getByTestId('team-lane');

for (const scheme of ['light', 'dark'] as const) {
  test(`the Team tab draws a lane per agent and the messages between them, axe-clean (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    await selectScenario(page, 'fix-a-bug');
    expect(await page.getByTestId('tab-team').count()).toBe(0);

    await selectScenario(page, 'team-split-tasks');
    await page.getByTestId('btn-run').click();
    await waitForStatus(page, 'done');
    await openTab(page, 'team');
    await expect.poll(() => lanes(page).count()).toBe(3);
    expect(await lanes(page).evaluateAll((els) => els.map((e) => `${e.getAttribute('data-name')}:${e.getAttribute('data-state')}`))).toEqual(['lead:lead', 'alice:shut_down', 'bob:shut_down']);
    expect(await page.getByTestId('team-arrow').count()).toBe(5);
    expect(await page.getByTestId('team-message').count()).toBe(5);
    expect(await seriousViolations(page), 'team tab').toEqual([]);
    await page.screenshot({ path: `/tmp/team-view-${scheme}.png`, fullPage: false });
  });
}

test('a mailbox.* breakpoint stops at mailbox events of any agent; the Team view follows the stepped position', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'team-shutdown');
  await openTab(page, 'stepper');
  await page.getByTestId('breakpoints').waitFor();
  await page.getByTestId('bp-event-mailbox.*').check();
  const hit = page.getByTestId('breakpoint-hit');
  const agents = new Set<string>();
  for (let i = 0; i < 6; i++) {
    await continueToNext(page);
    expect(await hit.textContent()).toContain('mailbox.');
    expect((await rowTypes(page)).at(-1)).toMatch(/^mailbox\./);
    expect(await rows(page).count()).toBe(Number(await hit.getAttribute('data-seq')));
    agents.add((await rows(page).last().getAttribute('data-agent')) ?? '');
  }
  // The hits came from the lead and from teammates: the one stream holds every agent.
  expect([...agents].some((a) => a.startsWith('teammate-'))).toBe(true);
  expect(agents.has('main')).toBe(true);

  // Step pulls exactly one event, whichever agent produced it.
  const before = await rows(page).count();
  await stepOnce(page);
  expect(await rows(page).count()).toBe(before + 1);

  // The Team view shows the stream as far as it has gone: alice and bob are up, mail is unread or read.
  await openTab(page, 'team');
  await expect.poll(() => lanes(page).count()).toBe(3);
  expect(await page.getByTestId('team-message').count()).toBe(await rows(page).and(page.locator('[data-type="mailbox.sent"]')).count());
});
