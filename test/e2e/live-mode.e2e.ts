import { allowConsoleErrors, expect, test } from './browser.ts';
import { E2E_API_KEY as DUMMY_KEY } from './constants.ts';
import { dumpBrowserStorage, openApp, openSettings, waitForStatus } from './app.ts';
import { fakeServer } from './live-helpers.ts';

test('live mode streams from the fake Anthropic server and runs its bash tool call', async ({ page }) => {
  const server = fakeServer();
  await openApp(page);
  await openSettings(page);
  await page.getByTestId('model-mode').selectOption('anthropic');
  await page.getByTestId('base-url').fill(server);
  await page.getByTestId('api-key').fill(DUMMY_KEY);
  expect(await page.getByTestId('remember-key').isChecked()).toBe(false);

  await page.getByTestId('prompt-input').fill('Say hello and leave a greeting file.');
  await page.getByTestId('btn-send').click();
  // Its bash call writes a file: default mode asks first (the safety layer); approve it once.
  await page.getByTestId('permission-dialog').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('permission-input').textContent()).toContain('greeting.txt');
  await page.getByTestId('btn-allow-once').click();
  await waitForStatus(page, 'done');

  const conversation = page.getByTestId('conversation');
  const assistantText = await conversation
    .locator('[data-testid="msg"][data-role="assistant"]')
    .first()
    .textContent();
  // The fake server's demo reply, streamed in many text deltas.
  expect(assistantText).toContain('Hello from the fake Anthropic server!');

  const bash = conversation.locator('[data-testid="tool-call"][data-tool="bash"]');
  await bash.first().waitFor();
  expect(await bash.first().getByTestId('tool-result').textContent()).toContain('hello from the fake server');

  await page
    .getByTestId('file-tree')
    .locator('[data-testid="file-entry"][data-path="/home/project/greeting.txt"]')
    .waitFor();

  const lastAssistant = await conversation.locator('[data-testid="msg"][data-role="assistant"]').last().textContent();
  expect(lastAssistant).toContain('greeting.txt now says');
  // The streamed reply arrived as several deltas, not one block.
  expect(await page.locator('[data-testid="event-row"][data-type="model.delta"]').count()).toBeGreaterThan(1);

  // The key was used for the request but is stored nowhere, since remember-key is off.
  expect(await dumpBrowserStorage(page)).not.toContain(DUMMY_KEY);
});

test('the API key is persisted only when remember-key is ticked', async ({ page }) => {
  await openApp(page);
  await openSettings(page);
  await page.getByTestId('model-mode').selectOption('anthropic');
  await page.getByTestId('api-key').fill(DUMMY_KEY);
  expect(await dumpBrowserStorage(page)).not.toContain(DUMMY_KEY);

  await page.getByTestId('remember-key').check();
  await expect.poll(async () => (await dumpBrowserStorage(page)).includes(DUMMY_KEY)).toBe(true);
  await page.reload();
  await openSettings(page);
  expect(await page.getByTestId('api-key').inputValue()).toBe(DUMMY_KEY);

  await page.getByTestId('remember-key').uncheck();
  await expect.poll(async () => (await dumpBrowserStorage(page)).includes(DUMMY_KEY)).toBe(false);
});

test('a wrong API key ends the live run with a readable error', async ({ page }) => {
  const server = fakeServer();
  await openApp(page);
  await openSettings(page);
  await page.getByTestId('model-mode').selectOption('anthropic');
  await page.getByTestId('base-url').fill(server);
  await page.getByTestId('api-key').fill('sk-ant-wrong-key');
  // The browser logs the refused request itself.
  allowConsoleErrors(page, /401|Unauthorized/i);

  await page.getByTestId('prompt-input').fill('hello?');
  await page.getByTestId('btn-send').click();
  await waitForStatus(page, 'error');
  const card = page.getByTestId('error-card');
  await card.waitFor();
  expect((await card.textContent()) ?? '').toMatch(/key|auth/i);
});
