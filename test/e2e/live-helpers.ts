/**
 * Page helpers for tests that talk to the fake Anthropic server (live mode, recording, replaying
 * a recorded link): where the server is, switching the model mode, answering the trust dialog.
 */
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { openSettings } from './app.ts';

/** The fake Anthropic server's base URL (global-setup starts it). */
export function fakeServer(): string {
  const url = inject('fakeServerUrl');
  if (!url) throw new Error(`the fake Anthropic server did not start: ${inject('fakeServerError')}`);
  return url;
}

export async function setMode(page: Page, mode: 'scripted' | 'anthropic'): Promise<void> {
  await openSettings(page);
  await page.getByTestId('model-mode').selectOption(mode);
}

/** A link that brings something that can act asks for trust once the page settles: trust it. */
export async function answerTrustIfAsked(page: Page): Promise<void> {
  const dialog = page.getByTestId('trust-dialog');
  // The dialog opens while the page settles; give it the chance to appear, then answer it.
  await page.getByTestId('scenario-picker').waitFor();
  if (await dialog.isVisible()) await page.getByTestId('btn-trust').click();
}
