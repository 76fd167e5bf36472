import { expect, test } from './browser.ts';
import { openApp, openSettings } from './app.ts';

test('sandbox-status names just-bash and says why', async ({ page }) => {
  await openApp(page);
  await openSettings(page);
  const status = page.getByTestId('sandbox-status');
  // The choice may take a while under 'auto': WebContainer's boot is raced against a timeout first.
  await expect.poll(async () => (await status.textContent()) ?? '', { timeout: 45_000 }).toMatch(/just-bash/i);
  const text = ((await status.textContent()) ?? '').replace(/\s+/g, ' ');
  // A reason, not just a name.
  expect(text.replace(/just-bash/gi, '').trim().length).toBeGreaterThan(10);
});

test('the sandbox contract self-check passes on just-bash in Chromium', async ({ page }) => {
  await openApp(page);
  await openSettings(page);
  const button = page.getByTestId('btn-selfcheck').or(page.getByRole('button', { name: /self-check/i })).first();
  await button.click();
  const results = page.locator('[data-testid="selfcheck-result"]');
  await results.first().waitFor({ timeout: 45_000 });
  // The check is over when its button is usable again.
  await expect.poll(() => button.isEnabled(), { timeout: 45_000 }).toBe(true);

  const rowsOk = await results.evaluateAll((els) =>
    els.map((el) => ({ ok: el.getAttribute('data-ok'), text: (el.textContent ?? '').trim() })),
  );
  expect(rowsOk.length).toBeGreaterThanOrEqual(5);
  const failed = rowsOk.filter((r) => r.ok !== 'true');
  expect(failed, 'every contract check passes').toEqual([]);
});
