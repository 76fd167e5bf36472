import { downloadBytes, expect, test } from './browser.ts';
import { blurInputs, openApp, openSettings, openTab, rowTypes, runStatus, selectScenario, waitForStatus } from './app.ts';
import { fileEntry, toolCalls } from './safety-fixtures.ts';

test('ask-permission: Deny with a message → the tool_result says the user declined, nothing ran', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'ask-permission');
  await page.getByTestId('btn-run').click();

  const dialog = page.getByTestId('permission-dialog');
  await dialog.waitFor();
  // The dialog says what would run and why it needs approval, and what a session grant would add.
  await expect.poll(() => page.getByTestId('permission-input').textContent()).toContain('bash deploy.sh staging');
  expect((await page.getByTestId('permission-reason').textContent())?.length).toBeGreaterThan(25);
  expect(await page.getByTestId('permission-suggestions').textContent()).toContain('Bash(');
  // While the question is open the run waits on it.
  expect(await runStatus(page)).toBe('running');
  expect(await page.getByTestId('btn-step').isDisabled()).toBe(true);

  await page.getByTestId('deny-message').fill('Not today, staging is frozen.');
  await page.getByTestId('btn-deny').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => dialog.isVisible()).toBe(false);

  const result = toolCalls(page).first().getByTestId('tool-result');
  const text = (await result.textContent()) ?? '';
  expect(text).toMatch(/declined/i);
  expect(text).toContain('Not today, staging is frozen.');
  // The prompt stage decided, as the user's denial.
  const decider = toolCalls(page).first().locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('prompt');
  expect(await decider.getAttribute('data-decision')).toBe('deny');
  expect(await fileEntry(page, '/home/project/deployed.txt').count()).toBe(0);
});

test('ask-permission: Allow once (with the Y key) → the command runs', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'ask-permission');
  await blurInputs(page);
  await page.keyboard.press('r');
  await page.getByTestId('permission-dialog').waitFor();
  // The focus is inside the dialog; Y answers "allow once".
  await page.keyboard.press('y');
  await waitForStatus(page, 'done');

  const call = toolCalls(page).first();
  expect(await call.getByTestId('tool-result').textContent()).not.toMatch(/declined/i);
  const decider = call.locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('prompt');
  expect(await decider.getAttribute('data-decision')).toBe('allow');
  await fileEntry(page, '/home/project/deployed.txt').waitFor();
});

test('ask-permission: Escape denies; "allow for this session" lists its rule in Settings; Reset clears it', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'ask-permission');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('permission-dialog').waitFor();
  await page.keyboard.press('Escape');
  await waitForStatus(page, 'done');
  expect(await toolCalls(page).first().getByTestId('tool-result').textContent()).toMatch(/declined/i);

  await page.getByTestId('btn-reset').click();
  await expect.poll(() => runStatus(page)).toBe('idle');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('permission-dialog').waitFor();
  const suggested = (await page.getByTestId('permission-suggestions').locator('li').allTextContents()).map((s) => s.trim());
  await page.getByTestId('btn-allow-session').click();
  await waitForStatus(page, 'done');
  await openSettings(page);
  const grants = (await page.getByTestId('session-grants').locator('li').allTextContents()).map((s) => s.trim());
  expect(grants).toEqual(suggested);

  await page.getByTestId('btn-reset').click();
  await page.getByTestId('session-grants-empty').waitFor();
});

test('Stop while the permission prompt is open aborts the run and closes the prompt', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'ask-permission');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('permission-dialog').waitFor();
  await page.getByTestId('btn-prompt-stop').click();
  await waitForStatus(page, 'aborted');
  await expect.poll(() => page.getByTestId('permission-dialog').isVisible()).toBe(false);
  expect((await rowTypes(page)).at(-1)).toBe('run.end');
});

test('deny-beats-allow: the stage strip shows the rules stage deciding, with the deny rule', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');

  const calls = toolCalls(page);
  expect(await calls.count()).toBe(2);
  // rm old.log: allowed by the allow rule.
  const first = calls.nth(0).locator('[data-testid="stage"][data-deciding="true"]');
  expect(await first.getAttribute('data-stage')).toBe('rules');
  expect(await first.getAttribute('data-decision')).toBe('allow');
  // rm -rf build: the deny rule wins over the allow rule that also matches.
  const strip = calls.nth(1).getByTestId('stage-strip');
  const decider = strip.locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.count()).toBe(1);
  expect(await decider.getAttribute('data-stage')).toBe('rules');
  expect(await decider.getAttribute('data-decision')).toBe('deny');
  expect(await decider.getAttribute('title')).toContain('Bash(rm -rf *)');
  // The stages before it ran and passed; the ones after were not reached.
  const stages = await strip.getByTestId('stage').evaluateAll((els) => els.map((e) => e.getAttribute('data-stage')));
  expect(stages.slice(0, 3)).toEqual(['validate', 'tool_check', 'hooks']);
  expect(await strip.locator('[data-testid="stage-skipped"][data-stage="prompt"]').count()).toBe(1);
  // Clicking the decider shows what decided it.
  await decider.click();
  expect(await calls.nth(1).getByTestId('stage-detail').textContent()).toContain('Bash(rm -rf *)');
  expect(await calls.nth(1).getByTestId('tool-result').textContent()).toContain('Bash(rm -rf *)');
  await fileEntry(page, '/home/project/build').waitFor();
});

test('pretooluse-hook-blocks: the hooks timeline shows the blocking PreToolUse hook (exit 2) with its stderr', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'pretooluse-hook-blocks');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');

  await openTab(page, 'hooks');
  const timeline = page.getByTestId('hooks-timeline');
  const blocking = timeline.locator('[data-testid="hook-row"][data-event="PreToolUse"][data-exit-code="2"]');
  expect(await blocking.count()).toBe(1);
  expect(['deny', 'block']).toContain(await blocking.getAttribute('data-decision'));
  expect(await blocking.textContent()).toContain('jq -r');
  await blocking.click();
  expect(await page.getByTestId('hook-stderr').textContent()).toContain('rm is blocked by policy');
  expect(JSON.parse((await page.getByTestId('hook-input').textContent()) ?? '{}')).toMatchObject({
    hook_event_name: 'PreToolUse',
    tool_input: { command: 'rm notes.txt' },
  });
  // The second call (mkdir + mv) passes the hook: exit 0.
  expect(await timeline.locator('[data-testid="hook-row"][data-event="PreToolUse"][data-exit-code="0"]').count()).toBeGreaterThanOrEqual(1);
  // In the conversation, the hooks stage decided the first call.
  const decider = toolCalls(page).first().locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('hooks');
  expect(await decider.getAttribute('data-decision')).toBe('deny');
});

test('what-if: re-judge a past call under other rules and another mode', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');

  const call = toolCalls(page).nth(1); // rm -rf build, denied by a rule
  await call.getByTestId('btn-what-if').click();
  const panel = call.getByTestId('what-if');
  const result = panel.getByTestId('what-if-result');
  // Starts from the session's own rules: the same verdict.
  await expect.poll(() => result.getAttribute('data-outcome')).toBe('deny');
  expect(await result.getAttribute('data-stage')).toBe('rules');
  expect(await panel.getByTestId('what-if-rules').inputValue()).toContain('deny: Bash(rm -rf *)');

  // Without the deny rule, the allow rule decides.
  await panel.getByTestId('what-if-rules').fill('allow: Bash(rm *)');
  await expect.poll(() => result.getAttribute('data-outcome')).toBe('allow');
  expect(await result.getAttribute('data-stage')).toBe('rules');

  // With no rules at all: default mode asks; plan mode refuses at the mode stage.
  await panel.getByTestId('what-if-rules').fill('');
  await expect.poll(() => result.getAttribute('data-outcome')).toBe('ask');
  await panel.getByTestId('what-if-mode').selectOption('plan');
  await expect.poll(() => result.getAttribute('data-outcome')).toBe('deny');
  expect(await result.getAttribute('data-stage')).toBe('mode');

  // A bad rule line is reported with its line number.
  await panel.getByTestId('what-if-rules').fill('allow: Bash(ls *)\nallow: Bash(');
  await expect.poll(() => panel.getByTestId('what-if-error').textContent()).toMatch(/^line 2:/);
});

test('settings editor: an invalid rule is reported with its line; a valid edit applies on Reset', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'ask-permission');
  await openSettings(page);
  const editor = page.getByTestId('settings-editor');
  await editor.fill(['{', '  "permissions": {', '    "allow": [', '      "Bash(deploy"', '    ]', '  }', '}'].join('\n'));
  const error = page.getByTestId('settings-error').first();
  await error.waitFor();
  expect(await error.getAttribute('data-line')).toBe('4');
  expect(await error.textContent()).toMatch(/line 4/);
  expect(await page.getByTestId('btn-apply-settings').isDisabled()).toBe(true);

  // JSON syntax errors name their line too.
  await editor.fill('{\n  "permissions": {\n    "allow": ["Bash(ls *)",]\n  }\n}');
  await expect.poll(() => page.getByTestId('settings-error').first().getAttribute('data-line')).toBe('3');

  // A valid edit: allow the deploy script → after Apply, the run needs no prompt.
  await editor.fill('{\n  "permissions": { "allow": ["Bash(bash deploy.sh *)"] }\n}');
  await expect.poll(() => page.getByTestId('settings-error').count()).toBe(0);
  await page.getByTestId('btn-apply-settings').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const decider = toolCalls(page).first().locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('rules');
  expect(await decider.getAttribute('data-decision')).toBe('allow');
  await fileEntry(page, '/home/project/deployed.txt').waitFor();
});

test('the permission-mode select overrides the scenario mode for the next run', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'ask-permission');
  await openSettings(page);
  await page.getByTestId('permission-mode').selectOption('dontAsk');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  // dontAsk denies what would need a prompt: no dialog, the mode stage decided.
  expect(await page.getByTestId('permission-dialog').isVisible()).toBe(false);
  const decider = toolCalls(page).first().locator('[data-testid="stage"][data-deciding="true"]');
  expect(await decider.getAttribute('data-stage')).toBe('mode');
  expect(await decider.getAttribute('data-decision')).toBe('deny');
});

test('audit export: one JSON line per permission decision, without any secret', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await openTab(page, 'scenario');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('btn-export-audit').click()]);
  const text = (await downloadBytes(download)).toString('utf8');
  const records = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(records).toHaveLength(2);
  expect(records[0]).toMatchObject({ tool: 'bash', input: 'rm old.log', decision: 'allow', stage: 'rules' });
  expect(records[1]).toMatchObject({ tool: 'bash', input: 'rm -rf build', decision: 'deny', stage: 'rules' });
  expect(String(records[1]!.decidedBy)).toContain('Bash(rm -rf *)');
  expect(text).not.toMatch(/sk-ant|apiKey|api_key/i);
});
