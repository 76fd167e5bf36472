import { allowConsoleErrors, expect, test } from './browser.ts';
import { openTab, rows, rowTypes, runStatus, selectScenario, showFiles, waitForStatus } from './app.ts';
import { fileEntry, hookedScenario, linkPath, openAt, toolCalls } from './safety-fixtures.ts';

const P = '/home/project';

test('a link that carries hooks asks for trust before anything runs; declining runs none of them', async ({ page }) => {
  const scenario = hookedScenario();
  await openAt(page, linkPath(scenario));

  const dialog = page.getByTestId('trust-dialog');
  await dialog.waitFor();
  // Exactly what would act, verbatim: both hook commands, the allow rule.
  const hooks = await dialog.getByTestId('trust-hook').allTextContents();
  expect(hooks).toHaveLength(2);
  expect(hooks.join('\n')).toContain(`echo started > ${P}/hooked-session.txt`);
  expect(hooks.join('\n')).toContain(`echo pre > ${P}/hooked-pre.txt`);
  expect(await dialog.getByTestId('trust-allow').allTextContents()).toEqual(['Bash(echo *)']);
  // Nothing has run, and nothing can be started while the question is open.
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe('hooked-link');
  expect(await rows(page).count()).toBe(0);
  expect(await page.getByTestId('btn-run').isDisabled()).toBe(true);
  expect(await page.getByTestId('btn-step').isDisabled()).toBe(true);

  await page.getByTestId('btn-distrust').click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  expect((await page.getByTestId('trust-badge').textContent())?.trim()).toBe('untrusted: hooks and allow rules are off');

  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  // The run happened (its file was seeded, its ls ran) but no hook did.
  await fileEntry(page, `${P}/readme.txt`).waitFor();
  expect(await toolCalls(page).first().getByTestId('tool-result').textContent()).toContain('readme.txt');
  const types = await rowTypes(page);
  expect(types.filter((t) => t.startsWith('hook.'))).toEqual([]);
  expect(await fileEntry(page, `${P}/hooked-session.txt`).count()).toBe(0);
  expect(await fileEntry(page, `${P}/hooked-pre.txt`).count()).toBe(0);
  await openTab(page, 'hooks');
  expect(await page.getByTestId('hooks-timeline').getByTestId('hook-row').count()).toBe(0);
  // The hooks stage of the call says there were none to run.
  const hooksStage = toolCalls(page).first().locator('[data-testid="stage"][data-stage="hooks"]');
  expect(await hooksStage.getAttribute('data-decision')).toBe('passthrough');
});

test('trusting a link runs its hooks; the trust is remembered, and a changed link asks again', async ({ page }) => {
  await openAt(page, linkPath(hookedScenario()));
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-trust').click();
  await expect.poll(() => page.getByTestId('trust-badge').getAttribute('data-state')).toBe('trusted');

  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await openTab(page, 'hooks');
  const hookRows = page.getByTestId('hooks-timeline').getByTestId('hook-row');
  await expect.poll(() => hookRows.count()).toBeGreaterThanOrEqual(2);
  expect(await page.getByTestId('hooks-timeline').locator('[data-testid="hook-row"][data-event="SessionStart"]').count()).toBe(1);
  expect(await page.getByTestId('hooks-timeline').locator('[data-testid="hook-row"][data-event="PreToolUse"]').count()).toBe(1);
  await showFiles(page);
  await fileEntry(page, `${P}/hooked-session.txt`).waitFor();
  await fileEntry(page, `${P}/hooked-pre.txt`).waitFor();

  // The same link again (a reload): remembered, no question.
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await expect.poll(() => page.getByTestId('trust-badge').getAttribute('data-state')).toBe('trusted');
  expect(await page.getByTestId('trust-dialog').isVisible()).toBe(false);

  // A link whose hooks differ hashes differently: asked again (via hashchange, no reload).
  await page.evaluate((hash) => (location.hash = hash), linkPath(hookedScenario('changed')).slice(1));
  await page.getByTestId('trust-dialog').waitFor();
  expect(await page.getByTestId('trust-dialog').textContent()).toContain('changed-pre.txt');
  expect(await page.getByTestId('btn-run').isDisabled()).toBe(true);
});

test('a garbled link shows a clear error and the app still works', async ({ page }) => {
  await openAt(page, '/#s=this-is-not-a-scenario!!');
  const error = page.getByTestId('load-error');
  await error.waitFor();
  expect(await error.textContent()).toMatch(/could not be opened.*garbled/i);
  expect(await page.getByTestId('trust-dialog').isVisible()).toBe(false);

  // Another kind of bad link, arriving by hashchange: valid gzip, not a scenario.
  const { gzipSync } = await import('node:zlib');
  const notScenario = gzipSync(Buffer.from('{"id":"x"}')).toString('base64url');
  await page.evaluate((hash) => (location.hash = hash), `s=${notScenario}`);
  await expect.poll(() => error.textContent()).toMatch(/invalid/i);

  await page.getByTestId('btn-dismiss-error').click();
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await runStatus(page)).toBe('done');
});

test('an imported scenario file goes through the trust question too', async ({ page }) => {
  await openAt(page, '/');
  const scenario = hookedScenario('imported');
  await page.getByTestId('import-file').setInputFiles({
    name: 'hooked.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(scenario)),
  });
  const dialog = page.getByTestId('trust-dialog');
  await dialog.waitFor();
  expect(await dialog.textContent()).toContain('imported-pre.txt');
  expect(await page.getByTestId('btn-run').isDisabled()).toBe(true);
  await page.keyboard.press('Escape'); // Escape = don't trust
  await expect.poll(() => page.getByTestId('trust-badge').getAttribute('data-state')).toBe('declined');

  // A file that is not a scenario: a clear error, nothing else changes.
  await page.getByTestId('import-file').setInputFiles({ name: 'junk.json', mimeType: 'application/json', buffer: Buffer.from('{"title": 3}') });
  await expect.poll(() => page.getByTestId('load-error').textContent()).toMatch(/junk\.json is not a valid scenario/);
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe('hooked-link');
});

test('Copy link makes a link that opens the same scenario (and shows its size)', async ({ page }) => {
  await openAt(page, '/');
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('btn-copy-link').click();
  const url = await page.getByTestId('link-url').inputValue();
  expect(await page.getByTestId('link-size').textContent()).toMatch(/\d+(\.\d)? (B|KB)/);
  expect(url).toContain('#s=');
  expect(url).not.toMatch(/sk-ant/);
  await page.goto(url);
  await page.getByTestId('scenario-picker').waitFor();
  // Its allow rule makes it actionable: a link of a built-in is still asked about.
  await page.getByTestId('trust-dialog').waitFor();
  expect(await page.getByTestId('trust-dialog').getByTestId('trust-allow').allTextContents()).toEqual(['Bash(rm *)']);
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe('deny-beats-allow-link');
});

test('a trusted JS hook runs in a Worker and its decision shows in the timeline and the stage strip', async ({ page }) => {
  const base = hookedScenario('js');
  const scenario = {
    ...base,
    id: 'js-hook-link',
    settings: {
      ...base.settings,
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'js' as const,
                name: 'no-ls',
                code: "console.error('checked ' + input.tool_input.command); return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'the JS hook says no' } };",
              },
            ],
          },
        ],
      },
    },
  };
  await openAt(page, linkPath(scenario));
  const dialog = page.getByTestId('trust-dialog');
  await dialog.waitFor();
  expect(await dialog.getByTestId('trust-hook').textContent()).toContain("permissionDecision: 'deny'");
  await page.getByTestId('btn-trust').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');

  const decider = toolCalls(page).first().locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('hooks');
  expect(await decider.getAttribute('data-decision')).toBe('deny');
  expect(await toolCalls(page).first().getByTestId('tool-result').textContent()).toContain('the JS hook says no');
  await openTab(page, 'hooks');
  const row = page.locator('[data-testid="hook-row"][data-event="PreToolUse"]');
  expect(await row.getAttribute('data-decision')).toBe('deny');
  expect(await row.textContent()).toContain('no-ls');
  await row.click();
  expect(await page.getByTestId('hook-stderr').textContent()).toContain('checked ls');
});

// RE2 and yaml load on demand (`harness/util/engines.ts`): a link's scenario is validated with them before it opens.
test('a link whose rule parsers cannot load: the page says so and what to do, opens nothing of the link and runs nothing; the reload it asks for opens it', async ({ page }) => {
  await page.route(/\/assets\/re2js-[\w-]+\.js$/, (route) => route.abort());
  allowConsoleErrors(page, /re2js-|Failed to load resource|dynamically imported module|ERR_FAILED/i);
  await openAt(page, linkPath(hookedScenario()));
  await expect
    .poll(async () => (await page.getByTestId('load-error').textContent().catch(() => '')) ?? '')
    .toMatch(/This share link could not be opened: the page could not load its settings and rule parsers\. Check the connection and reload the page\./);
  expect(await page.getByTestId('scenario-picker').inputValue()).not.toBe('hooked-link');
  expect(await page.getByTestId('trust-dialog').isVisible()).toBe(false);
  // The default scenario is the page's; its run needs the same parsers: nothing starts, and the notice says why and what to do.
  await page.getByTestId('btn-run').click();
  await expect
    .poll(async () => (await page.getByTestId('notice').textContent().catch(() => '')) ?? '')
    .toMatch(/^Nothing ran: Could not load the settings and rule parsers \(.+re2js-.+\)\. Check the connection and reload the page\.$/);
  expect(await page.getByTestId('btn-run').isEnabled()).toBe(true);
  expect(await rows(page).count()).toBe(0);
  // With the connection back, the reload opens the link: its trust question first.
  await page.unroute(/\/assets\/re2js-[\w-]+\.js$/);
  await page.reload();
  await page.getByTestId('trust-dialog').waitFor();
  expect(await page.getByTestId('scenario-picker').inputValue()).toBe('hooked-link');
});
