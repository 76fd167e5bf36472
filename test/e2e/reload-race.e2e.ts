/**
 * The reload race (issue 11 §4): while the session that was open before a reload is read back,
 * the start screen must not be live — Step, Run, the prompt and the scenario picker wait, and the
 * page says "Restoring…". The restore is held open here by gating the storage estimate the
 * session list waits for, so the window is as long as the test needs, not about a second.
 */
import { expect, test } from './browser.ts';
import { blurInputs, openTab, rows, rowTypes, runStatus, runToEnd, waitForRowCount } from './app.ts';

test('after a reload nothing can start until the last session is restored; then it is back, alone in its log', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  const eventCount = await rows(page).count();
  await openTab(page, 'sessions');
  await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);

  // Hold the restore: the session list reads the storage estimate, which waits for the test.
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const w = window as unknown as { __releaseRestore?: () => void };
    const gate = new Promise<void>((resolve) => (w.__releaseRestore = resolve));
    const real = StorageManager.prototype.estimate;
    StorageManager.prototype.estimate = async function (this: StorageManager) {
      await gate;
      return real.call(this);
    };
  });
  await page.reload();
  await page.getByTestId('restoring-banner').waitFor();
  expect(await page.getByTestId('restoring-banner').textContent()).toMatch(/Restoring/);
  expect(await page.getByTestId('btn-run').isDisabled()).toBe(true);
  expect(await page.getByTestId('btn-step').isDisabled()).toBe(true);
  expect(await page.getByTestId('scenario-picker').isDisabled()).toBe(true);
  expect(await page.getByTestId('btn-reset').isDisabled()).toBe(true);
  await page.getByTestId('prompt-input').fill('Start something else.');
  expect(await page.getByTestId('btn-send').isDisabled()).toBe(true);
  // The keyboard cannot start a run either.
  await blurInputs(page);
  await page.keyboard.press('r');
  await page.keyboard.press('s');
  expect(await rows(page).count()).toBe(0);
  expect(await runStatus(page)).toBe('idle');

  await page.evaluate(() => (window as unknown as { __releaseRestore: () => void }).__releaseRestore());
  await waitForRowCount(page, eventCount);
  await expect.poll(() => page.getByTestId('restoring-banner').count()).toBe(0);
  expect(await runStatus(page)).toBe('done');
  expect((await rowTypes(page)).filter((t) => t === 'run.start')).toHaveLength(1);
  expect(await page.getByTestId('scenario-picker').isDisabled()).toBe(false);
  await openTab(page, 'sessions');
  await expect.poll(() => page.getByTestId('session-row').count()).toBe(1);
});

test('a lesson opened while the last session is restored waits for it, says so, and then opens', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  await page.addInitScript(() => {
    if (window !== window.top) return;
    const w = window as unknown as { __releaseRestore?: () => void };
    const gate = new Promise<void>((resolve) => (w.__releaseRestore = resolve));
    const real = StorageManager.prototype.estimate;
    StorageManager.prototype.estimate = async function (this: StorageManager) {
      await gate;
      return real.call(this);
    };
  });
  await page.reload();
  await page.getByTestId('restoring-banner').waitFor();
  // The click is kept, not dropped: the banner says what opens once the session is back.
  await openTab(page, 'course');
  await page.locator('[data-testid="course-lesson"][data-lesson="max-tokens-recovery"] button.open').click();
  await expect.poll(() => page.getByTestId('restoring-queued').textContent()).toContain('Max-tokens recovery');

  await page.evaluate(() => (window as unknown as { __releaseRestore: () => void }).__releaseRestore());
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('max-tokens-recovery');
  await expect.poll(() => page.getByTestId('restoring-banner').count()).toBe(0);
  expect(await rows(page).count()).toBe(0);
  expect(await runStatus(page)).toBe('idle');
});

// The page holds for the restore from its first moment (SessionManager.init), before the library it
// needs to read a lesson link has arrived: once it has, a lesson link wins over the last session, as
// a link does, and the hold is let go.
test('a lesson link opened in a browser with a last session opens the lesson, not the session', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  // The same tab, reloaded at a lesson link (set without a hashchange, so the reload is what reads it).
  await page.evaluate(() => history.replaceState(null, '', `${location.pathname}#lesson=max-tokens-recovery`));
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('max-tokens-recovery');
  await expect.poll(() => page.getByTestId('restoring-banner').count()).toBe(0);
  await expect.poll(() => page.getByTestId('btn-step').isEnabled()).toBe(true);
  expect(await rows(page).count()).toBe(0);
  expect(await runStatus(page)).toBe('idle');
});
