/**
 * Page helpers for tests that talk to the fake Anthropic server (live mode, recording, replaying
 * a recorded link): where the server is, switching the model mode, answering the trust dialog.
 */
import type { Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { openApp, openSettings, openTab, waitForStatus } from './app.ts';
import { E2E_API_KEY } from './constants.ts';

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

/** Settings → the Anthropic model at the fake server, with the key it accepts. */
export async function goLive(page: Page): Promise<void> {
  await setMode(page, 'anthropic');
  await page.getByTestId('base-url').fill(fakeServer());
  await page.getByTestId('api-key').fill(E2E_API_KEY);
}

/** Sends the fake server's demo prompt, allows its bash call once and waits for the run to end. */
export async function runDemoConversation(page: Page): Promise<void> {
  await page.getByTestId('prompt-input').fill('Say hello and leave a greeting file.');
  await page.getByTestId('btn-send').click();
  await page.getByTestId('permission-dialog').waitFor({ timeout: 30_000 });
  await page.getByTestId('btn-allow-once').click();
  await waitForStatus(page, 'done');
}

/**
 * Opens the app, records a live run of the fake server's demo conversation (its bash call allowed
 * once), saves the recording and returns its share link.
 */
export async function recordDemoRun(page: Page): Promise<string> {
  await openApp(page);
  await goLive(page);
  await openTab(page, 'stepper');
  await page.getByTestId('record-toggle').check();
  await runDemoConversation(page);

  await openTab(page, 'stepper');
  await page.getByTestId('btn-save-recording').click();
  return page.getByTestId('recording-link').inputValue();
}

/** Forgets the key, switches to the scripted model and opens a recording's link (trusting it). */
export async function openRecordingWithNoKey(page: Page, link: string): Promise<void> {
  await setMode(page, 'anthropic');
  await page.getByTestId('api-key').fill('');
  await setMode(page, 'scripted');
  await page.goto(link);
  await page.reload();
  await answerTrustIfAsked(page);
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toMatch(/-recorded$/);
}
