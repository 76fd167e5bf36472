/**
 * The trust question's answers do what they say (issue 11 §4): "Trust and run" trusts and runs;
 * on a lesson, the dialog says what "Don't trust" changes — the learner then meets permission
 * prompts the lesson's author never saw.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './browser.ts';
import { rowTypes, waitForStatus } from './app.ts';
import { fileEntry, hookedScenario, linkPath, openAt } from './safety-fixtures.ts';
import { encodeScenarioLinkV1 } from '../../src/scenarios/codec.ts';
import type { ScenarioV1 } from '../../src/scenarios/schema-v1.ts';

test('"Trust and run" trusts the link and runs it: its hooks act', async ({ page }) => {
  await openAt(page, linkPath(hookedScenario()));
  const dialog = page.getByTestId('trust-dialog');
  await dialog.waitFor();
  // Not a lesson: no lesson note.
  expect(await dialog.getByTestId('trust-lesson-note').count()).toBe(0);
  await page.getByTestId('btn-trust-run').click();
  await waitForStatus(page, 'done');
  expect(await page.getByTestId('trust-badge').getAttribute('data-state')).toBe('trusted');
  expect((await rowTypes(page)).filter((t) => t.startsWith('hook.')).length).toBeGreaterThan(0);
  await fileEntry(page, '/home/project/hooked-pre.txt').waitFor();
});

test('on a lesson, the dialog says what "Don\'t trust" changes, and declining brings the prompt the author did not see', async ({ page }) => {
  const doc = JSON.parse(readFileSync(new URL('../../src/scenarios/library/deny-beats-allow.json', import.meta.url), 'utf8')) as ScenarioV1;
  await openAt(page, `/#s=${encodeScenarioLinkV1({ ...doc, id: 'deny-beats-allow-link' })}`);
  const dialog = page.getByTestId('trust-dialog');
  await dialog.waitFor();
  const note = dialog.getByTestId('trust-lesson-note');
  expect(await note.textContent()).toMatch(/lesson.*permission prompts/s);

  await page.getByTestId('btn-distrust').click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await page.getByTestId('btn-run').click();
  // Its allow rule is off: the rm the lesson lets through now asks.
  const prompt = page.getByTestId('permission-dialog');
  await prompt.waitFor();
  expect(await prompt.getByTestId('permission-input').textContent()).toContain('rm');
});
