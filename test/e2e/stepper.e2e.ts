/**
 * The stepper: breakpoints and Continue, step back re-rendering every panel from the log, and an
 * edited tool input continued as a fork.
 */
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { activeNodes, openApp, openTab, rows, rowTypes, runStatus, selectScenario, waitForStatus } from './app.ts';
import { continueToNext } from './stepper-app.ts';

async function openStepperTab(page: Page): Promise<void> {
  await openTab(page, 'stepper');
  await page.getByTestId('breakpoints').waitFor();
}

const position = async (page: Page) => Number(await page.getByTestId('cursor-status').getAttribute('data-position'));
const total = async (page: Page) => Number(await page.getByTestId('cursor-status').getAttribute('data-total'));
const messages = (page: Page) => page.getByTestId('conversation').getByTestId('msg');

test('a permission.stage breakpoint stops there, and Continue goes to the next one', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openStepperTab(page);
  await page.getByTestId('bp-event-permission.stage').check();
  await expect.poll(() => page.getByTestId('bp-chip').count()).toBe(1);

  await continueToNext(page);
  const hit = page.getByTestId('breakpoint-hit');
  expect(await hit.textContent()).toContain('permission.stage');
  const first = Number(await hit.getAttribute('data-seq'));
  expect((await rowTypes(page)).at(-1)).toBe('permission.stage');
  expect(await rows(page).count()).toBe(first);
  expect(await runStatus(page)).toBe('paused');

  await page.keyboard.press('c');
  await expect.poll(async () => Number(await hit.getAttribute('data-seq'))).toBeGreaterThan(first);
  await expect.poll(() => page.getByTestId('btn-continue').isEnabled()).toBe(true);
  const second = Number(await hit.getAttribute('data-seq'));
  expect((await rowTypes(page)).at(-1)).toBe('permission.stage');
  expect(await rows(page).count()).toBe(second);
  // Only permission.stage events between them: none was skipped.
  const types = await rowTypes(page);
  expect(types.slice(first, second - 1)).not.toContain('permission.stage');
});

test('step back re-renders every panel from the log; step forward replays before pulling', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openStepperTab(page);
  await page.getByTestId('bp-event-tool.result').check();
  await continueToNext(page);
  const types = await rowTypes(page);
  const n = types.length;
  const msgsAtEnd = await messages(page).count();
  expect(msgsAtEnd).toBeGreaterThanOrEqual(2);
  const firstRequest = types.indexOf('model.request') + 1;
  expect(firstRequest).toBeGreaterThan(0);

  // Step back (button, then the B key) until the view ends at the first model.request.
  await page.getByTestId('btn-step-back').click();
  expect(await position(page)).toBe(n - 1);
  while ((await position(page)) > firstRequest) await page.keyboard.press('b');
  expect(await page.getByTestId('cursor-status').textContent()).toContain(`viewing event ${firstRequest} of ${n}`);
  expect(await rows(page).count()).toBe(firstRequest);
  expect(await page.getByTestId('status-bar').textContent().catch(() => '')).not.toContain(`${n} events`);
  // The conversation is as it was then: only the prompt, no reply yet.
  expect(await messages(page).count()).toBeLessThan(msgsAtEnd);
  expect(await activeNodes(page)).toContain('model');
  // The live run was not touched.
  expect(await total(page)).toBe(n);
  expect(await runStatus(page)).toBe('paused');

  // Step forward replays what is in the log first: no new event is pulled.
  await page.getByTestId('btn-step').click();
  expect(await position(page)).toBe(firstRequest + 1);
  expect(await total(page)).toBe(n);
  // Continue from the past first meets the breakpoint already in the log (the tool.result at n)…
  await page.getByTestId('btn-continue').click();
  await expect.poll(() => position(page)).toBe(n);
  expect(await total(page)).toBe(n);
  expect(await page.getByTestId('breakpoint-hit').getAttribute('data-seq')).toBe(String(n));
  // …and only then pulls new events, to the next stop.
  await continueToNext(page);
  expect(await total(page)).toBeGreaterThan(n);
  expect(await position(page)).toBe(await total(page));
});

test('editing a tool input at a breakpoint runs the edited command, as a fork', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openStepperTab(page);
  await page.getByTestId('bp-tool-bash').check();
  await continueToNext(page);
  expect(await page.getByTestId('breakpoint-hit').textContent()).toContain('tool bash');

  const editor = page.getByTestId('tool-input-editor');
  expect(await editor.inputValue()).toContain('bash test.sh');
  await editor.fill('{"command": "echo EDITED-RAN > edited.txt && cat edited.txt", "description": "edited at a breakpoint"}');
  await page.getByTestId('btn-apply-edit').click();
  await page.getByTestId('fork-note').waitFor();
  expect(await page.getByTestId('fork-note').textContent()).toContain('edited the input of bash');

  // Run on without stopping at bash again; approve the edited command if asked.
  await page.getByTestId('bp-tool-bash').uncheck();
  await continueToNext(page);
  await waitForStatus(page, 'done');
  const results = await page.getByTestId('conversation').getByTestId('tool-result').allTextContents();
  expect(results.join('\n')).toContain('EDITED-RAN');
  await page
    .getByTestId('file-tree')
    .locator('[data-testid="file-entry"][data-path="/home/project/edited.txt"]')
    .waitFor();
});
