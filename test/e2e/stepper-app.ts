/** Page helpers for the stepper's e2e tests (stepper.e2e.ts, authoring.e2e.ts). */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { runStatus } from './app.ts';

/** Click Continue and wait until it stopped (a new hit) or the run ended; approve any permission asked on the way. */
export async function continueToNext(page: Page): Promise<void> {
  const hit = page.getByTestId('breakpoint-hit');
  const before = (await hit.count()) ? await hit.getAttribute('data-seq') : null;
  await page.getByTestId('btn-continue').click();
  await expect
    .poll(
      async () => {
        const dialog = page.getByTestId('permission-dialog');
        if (await dialog.isVisible()) await page.getByTestId('btn-allow-once').click();
        const seq = (await hit.count()) ? await hit.getAttribute('data-seq') : null;
        if (seq !== null && seq !== before) return true;
        return ['done', 'error', 'aborted'].includes(await runStatus(page));
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  await expect.poll(() => page.getByTestId('btn-continue').isEnabled().then((e) => e || runStatus(page).then((s) => s !== 'paused'))).toBe(true);
}

