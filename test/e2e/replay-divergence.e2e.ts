/**
 * Replay divergence in the app: fix-a-bug's replies were recorded with their tool results; a
 * PreToolUse hook added in Settings blocks the test, so the replay marks where it stopped
 * matching (a marker row, every later row marked) and the tool card shows recorded vs actual.
 * Axe-clean in both themes; screenshots at desktop and phone sizes.
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { expect, shotPath, test } from './browser.ts';
import { holdAtQuestions, openApp, openSettings, rows, selectScenario, waitForStatus } from './app.ts';
import { courseLessons } from '../../src/scenarios/course.ts';
import { decodeScenarioLinkV1 } from '../../src/scenarios/codec.ts';
import { openRecordingWithNoKey, recordDemoRun } from './live-helpers.ts';
import { toolCalls } from './safety-fixtures.ts';

const SHOTS = shotPath('diverge');


/** fix-a-bug with a PreToolUse hook that blocks every run of test.sh, applied in Settings, run to the end. */
async function runBlocked(page: Page): Promise<void> {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openSettings(page);
  const editor = page.getByTestId('settings-editor');
  const settings = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
  const block = `cmd=$(jq -r '.tool_input.command'); case "$cmd" in *test.sh*) echo 'test runs are frozen' >&2; exit 2;; esac`;
  settings.hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: block }] }] };
  await editor.fill(JSON.stringify(settings, null, 2));
  await page.getByTestId('btn-apply-settings').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
}

test('a hook that blocks the recorded test: the replay marks where it diverged, and the card shows recorded vs actual', async ({ page }) => {
  await runBlocked(page);

  // One marker, right above the first replay.diverged row; every row from there on is marked, none before.
  const marker = page.getByTestId('event-diverged-marker');
  await expect.poll(() => marker.count()).toBe(1);
  expect(await marker.textContent()).toContain('Replay diverged from the recording here');
  const types = await rows(page).evaluateAll((els) => els.map((el) => [el.getAttribute('data-type'), el.getAttribute('data-diverged')]));
  const first = types.findIndex(([t]) => t === 'replay.diverged');
  expect(first).toBeGreaterThan(0);
  expect(types.slice(0, first).every(([, d]) => d === null)).toBe(true);
  expect(types.slice(first).every(([, d]) => d === 'true')).toBe(true);
  expect(types.filter(([t]) => t === 'replay.diverged')).toHaveLength(2);
  const nextRow = await marker.evaluate((el) => el.nextElementSibling?.getAttribute('data-type'));
  expect(nextRow).toBe('replay.diverged');

  // The first test run: recorded "FAIL: expected 60", here the hook's message.
  const card = toolCalls(page).first();
  expect(await card.getByTestId('tool-diverged-chip').count()).toBe(1);
  const divergence = card.getByTestId('tool-divergence');
  expect(await divergence.textContent()).toContain('Not what the recording saw');
  const diff = divergence.getByTestId('tool-divergence-diff');
  expect(await diff.locator('[data-kind="recorded"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('FAIL: expected 60, got -60')]));
  expect((await diff.locator('[data-kind="actual"]').allTextContents()).join('\n')).toContain('test runs are frozen');
  // The re-run: the recording saw it pass; here it is an error.
  const rerun = toolCalls(page).nth(3);
  expect(await rerun.getByTestId('tool-divergence').textContent()).toMatch(/recording got ok.*this run got an error/s);
  // The conversation: one divider, after the first card, above the recorded reply that never saw the block.
  const divider = page.getByTestId('conversation-diverged');
  expect(await divider.count()).toBe(1);
  expect(await divider.textContent()).toContain('Replay diverged from the recording');
  const order = await divider.evaluate((el) => {
    const all = [...document.querySelectorAll('[data-testid="conversation"] [data-testid="msg"], [data-testid="conversation-diverged"]')];
    return all.map((x) => (x === el ? 'divider' : (x.getAttribute('data-role') ?? '?')));
  });
  const at = order.indexOf('divider');
  expect(order.slice(0, at)).toContain('tool');
  expect(order.slice(at + 1).find((r) => r === 'assistant' || r === 'tool')).toBe('assistant');
  // The read and the edit still matched: no divergence on their cards.
  expect(await toolCalls(page).nth(1).getByTestId('tool-divergence').count()).toBe(0);

  // The marker opens the explanation of the first divergence, with its lesson.
  await marker.click();
  expect(await page.getByTestId('explain-why').textContent()).toContain('turn 1 of the script');
  expect(await page.getByTestId('explain-lesson').getAttribute('data-lesson')).toBe('replay-diverges');
});

// Every built-in lesson that carries recorded results replays faithfully in the browser too.
const faithful = courseLessons().filter((l) => l.id !== 'replay-diverges' && l.model.kind !== 'anthropic' && l.model.turns.some((t) => t.content.some((b) => 'result' in b && b.result)));

for (const lesson of faithful) {
  test(`a faithful replay in the browser (${lesson.id} as it is) shows no divergence anywhere`, async ({ page }) => {
    await openApp(page);
    await selectScenario(page, lesson.id);
    await page.getByTestId('btn-run').click();
    await waitForStatus(page, 'done');
    expect(await toolCalls(page).count()).toBeGreaterThan(0);
    expect(await page.getByTestId('event-diverged-marker').count()).toBe(0);
    expect(await rows(page).and(page.locator('[data-diverged="true"]')).count()).toBe(0);
    expect(await page.getByTestId('tool-divergence').count()).toBe(0);
    expect(await page.getByTestId('conversation-diverged').count()).toBe(0);
  });
}

test('a live run recorded in the app keeps its tool results; its link replays with no key and no divergence, and diverges when the call is denied', async ({ page }) => {
  const link = await recordDemoRun(page);
  const doc = decodeScenarioLinkV1(link.slice(link.indexOf('#s=') + 3));
  if (!doc.ok || doc.scenario.model.kind !== 'recorded') throw new Error('expected a recorded scenario');
  const recorded = doc.scenario.model.turns.flatMap((t) => t.content.flatMap((b) => (b.type === 'tool_use' && b.result ? [b.result.content] : [])));
  expect(recorded.join('\n')).toContain('hello from the fake server');

  // The replay: scripted, no key; every tool returns what the recording saw.
  await openRecordingWithNoKey(page, link);
  await page.getByTestId('btn-run').click();
  // The same call asks again (default mode), and the same answer is given.
  await page.getByTestId('permission-dialog').waitFor({ timeout: 30_000 });
  await page.getByTestId('btn-allow-once').click();
  await waitForStatus(page, 'done');
  expect(await toolCalls(page).count()).toBeGreaterThan(0);
  expect(await page.getByTestId('event-diverged-marker').count()).toBe(0);
  expect(await page.getByTestId('tool-divergence').count()).toBe(0);

  // Again, but this time the person denies the call the recording was allowed to run: diverged.
  await page.getByTestId('btn-reset').click();
  await page.getByTestId('btn-run').click();
  await page.getByTestId('permission-dialog').waitFor({ timeout: 30_000 });
  await page.getByTestId('btn-deny').click();
  await waitForStatus(page, 'done');
  await page.getByTestId('event-diverged-marker').waitFor();
  const divergence = toolCalls(page).first().getByTestId('tool-divergence');
  expect(await divergence.textContent()).toMatch(/recording got ok.*this run got an error/s);
  expect(await divergence.locator('[data-kind="recorded"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('hello from the fake server')]));
});

test('the divergence lesson: Run holds at its question on the divergence, its note is there, and the answer is the recorded reply’s exit', async ({ page }) => {
  const lesson = courseLessons().find((l) => l.id === 'replay-diverges')!;
  const question = lesson.questions[0]!;
  await holdAtQuestions(page);
  await openApp(page, '/#lesson=replay-diverges');
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('replay-diverges');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  await expect.poll(() => rows(page).count(), { timeout: 45_000 }).toBe(question.atSeq);
  // The question is asked on the divergence row, under its marker, before the recorded reply streams.
  expect(await rows(page).last().getAttribute('data-type')).toBe('replay.diverged');
  expect(await page.getByTestId('event-diverged-marker').count()).toBe(1);
  expect(await page.getByTestId('step-note').last().textContent()).toContain('The replay has diverged');
  await page.screenshot({ path: `${SHOTS}/lesson-question-1440.png` });
  await page.locator(`[data-testid="question-choice"][data-index="${question.answer}"]`).click();
  expect(await page.getByTestId('question-answer').textContent()).toContain('Right');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await toolCalls(page).first().getByTestId('tool-divergence').textContent()).toContain('Not what the recording saw');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the divergence marker and card are axe-clean and legible (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await runBlocked(page);
    await page.getByTestId('event-diverged-marker').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await toolCalls(page).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/diverged-1440-${scheme}.png` });
    await page.getByTestId('event-diverged-marker').scrollIntoViewIfNeeded();
    await page.getByTestId('event-list').screenshot({ path: `${SHOTS}/event-list-1440-${scheme}.png` });
    await toolCalls(page).first().screenshot({ path: `${SHOTS}/card-1440-${scheme}.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await toolCalls(page).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/diverged-390-${scheme}.png` });
    expect(await seriousViolations(page)).toEqual([]);
  });
}
