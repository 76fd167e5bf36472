/**
 * What a person sees of issue 8 §3 in the app: settings warnings with line and column, the
 * bypass-by-scope note, a refusal's explanation with the prompt box still usable, and a
 * retry wait that counts down.
 */
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import { hiddenRmScenario } from '../fixtures/hidden-rm.ts';
import { fileEntry, openSettings, rowTypes, selectScenario, showFiles, stepOnce, waitForStatus } from './app.ts';
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { linkPath, openAt } from './safety-fixtures.ts';

function scenario(id: string, turns: unknown[]): Scenario {
  const r = parseScenario({ id, title: id, description: 'e2e', prompt: 'Go.', files: {}, model: { kind: 'scripted', turns }, settings: { maxTurns: 5 } });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

test('the settings editor warns about a Write rule (line, column) and a scenario bypass', async ({ page }) => {
  await openAt(page, '/');
  await selectScenario(page, 'ask-permission');
  await openSettings(page);
  const editor = page.getByTestId('settings-editor');
  await editor.fill(['{', '  "permissions": {', '    "allow": ["Bash(ls *)",', '      "Write(src/**)"],', '    "defaultMode": "bypassPermissions"', '  }', '}'].join('\n'));
  const warnings = page.getByTestId('settings-warning');
  await expect.poll(() => warnings.count()).toBe(2);
  expect(await warnings.first().getAttribute('data-line')).toBe('4');
  expect(await warnings.first().getAttribute('data-column')).toBe('7');
  expect(await warnings.first().textContent()).toMatch(/grants nothing.*Edit\(src\/\*\*\)/);
  expect(await warnings.nth(1).textContent()).toMatch(/bypassPermissions is honoured only from user settings/);
  // Warnings do not block: the document is valid.
  expect(await page.getByTestId('btn-apply-settings').isDisabled()).toBe(false);
  await page.getByTestId('btn-apply-settings').click();
  await expect.poll(() => page.getByTestId('mode-note').first().textContent()).toMatch(/from scenario settings is ignored.*In force: default/);
  await page.screenshot({ path: 'test-results/permission-settings-warnings.png' });
});

test('a refusal shows the API explanation and the prompt box stays usable', async ({ page }) => {
  const s = scenario('refusal-link', [
    { content: [{ type: 'text', text: 'Sure' }], stop_reason: 'refusal', stop_details: { type: 'refusal', category: 'cyber', explanation: 'This request could enable malware.' } },
    { content: [{ type: 'text', text: 'Happy to help with sorting.' }] },
  ]);
  await openAt(page, linkPath(s));
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const card = page.getByTestId('refusal-card');
  await card.waitFor();
  expect(await card.getAttribute('data-category')).toBe('cyber');
  expect(await page.getByTestId('refusal-explanation').textContent()).toContain('This request could enable malware.');
  expect(await page.getByTestId('run-end').getAttribute('data-reason')).toBe('refusal');
  // The refused reply is not shown as an answer.
  expect(await page.getByTestId('conversation').locator('[data-testid="msg"][data-role="assistant"]').count()).toBe(0);
  await page.screenshot({ path: 'test-results/refusal-card.png' });
  await page.getByTestId('theme-toggle').click();
  await page.screenshot({ path: 'test-results/refusal-card-dark.png' });
  // Carry on: a new prompt runs.
  await page.getByTestId('prompt-input').fill('Then explain sorting.');
  await page.getByTestId('btn-send').click();
  await page.getByTestId('conversation').locator('[data-testid="msg"][data-role="assistant"]').filter({ hasText: 'Happy to help' }).waitFor();
});

test('a retry wait counts down in seconds, then retries', async ({ page }) => {
  const s = scenario('retry-link', [{ fault: { kind: 'http', status: 429, retryAfterSeconds: 8 } }, { content: [{ type: 'text', text: 'Back again.' }] }]);
  await openAt(page, linkPath(s));
  await page.getByTestId('btn-run').click();
  const countdown = page.getByTestId('retry-countdown');
  await countdown.waitFor();
  const first = Number(await countdown.getAttribute('data-seconds'));
  // (the page may take a moment to show it on a busy machine; the wait is 8 s)
  expect(first).toBeGreaterThanOrEqual(2);
  expect(first).toBeLessThanOrEqual(8);
  expect(await countdown.textContent()).toMatch(/Retrying in \d s/);
  await page.screenshot({ path: 'test-results/retry-countdown.png' });
  // It ticks: a smaller number shows before the retry goes out.
  await expect.poll(async () => Number(await countdown.getAttribute('data-seconds'))).toBeLessThan(first);
  await waitForStatus(page, 'done');
  expect(await countdown.textContent()).toMatch(/Retried after 8\.0 s/);
});


// Issue 21 §6: the page judges a Bash command on just-bash's parse tree, as the CLI does. Our lexer
// does not look inside ${…} and would allow this `echo`; the shell runs the `rm` in its default.
test('a command hidden in a ${x:-…} default is denied by a deny rule on rm, as in the CLI, and the file stays', async ({ page }) => {
  await openAt(page, linkPath(hiddenRmScenario('e2e')));
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const call = page.getByTestId('conversation').getByTestId('tool-call').first();
  expect(await call.getByTestId('tool-result').textContent()).toMatch(/denied/i);
  expect(await call.getByTestId('tool-result').textContent()).toContain('Bash(rm *)');
  await showFiles(page);
  await fileEntry(page, '/home/project/keep.txt').waitFor();
});

/** Whether the page has requested the shell parser's chunk (just-bash's ESM build comes with it). */
function parserRequested(page: Page): Promise<boolean> {
  return page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/shell-parser-[^/]*\.js$/.test(e.name)));
}

// Issue 23 §4: just-bash's parser (~0.65 MB on the page's thread) is not loaded at idle nor in the
// first Step; the run's first model request starts it, and the call after it is still judged on it.
test('the parser loads at the first model request, not before, and the hidden rm is still denied', async ({ page }) => {
  await openAt(page, linkPath(hiddenRmScenario('e2e')));
  for (;;) {
    expect(await parserRequested(page), 'no Step before the first model request loads the parser').toBe(false);
    await stepOnce(page);
    if ((await rowTypes(page)).includes('model.request')) break;
  }
  await expect.poll(() => parserRequested(page)).toBe(true);
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const call = page.getByTestId('conversation').getByTestId('tool-call').first();
  expect(await call.getByTestId('tool-result').textContent()).toContain('Bash(rm *)');
  await showFiles(page);
  await fileEntry(page, '/home/project/keep.txt').waitFor();
});
