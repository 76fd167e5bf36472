import { expect, test } from './browser.ts';
import { fileViewerText, holdAtQuestions, openApp, rowSeqs, rowTypes, rows, runToEnd, selectScenario, waitForStatus } from './app.ts';
import { fixABugExpectation } from './oracle.ts';

test('Run plays fix-a-bug to the end: tool calls, the edited file, filter, event JSON', async ({ page }) => {
  const oracle = await fixABugExpectation();
  await runToEnd(page, 'fix-a-bug');

  const types = await rowTypes(page);
  expect(types[0]).toBe('run.start');
  expect(types[types.length - 1]).toBe('run.end');
  const seqs = await rowSeqs(page);
  expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  expect(new Set(seqs).size).toBe(seqs.length);

  // The conversation shows the user prompt, the assistant and each tool call the script makes.
  const conversation = page.getByTestId('conversation');
  await conversation.locator('[data-testid="msg"][data-role="user"]').first().waitFor();
  await conversation.locator('[data-testid="msg"][data-role="assistant"]').first().waitFor();
  const toolNames = await conversation
    .getByTestId('tool-call')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-tool') ?? ''));
  expect(toolNames).toEqual(oracle.toolNames);
  const results = conversation.getByTestId('tool-call').getByTestId('tool-result');
  expect(await results.count()).toBe(oracle.toolNames.length);

  // The file the agent edited is in the tree, and opening it shows the fixed content.
  const entry = page.getByTestId('file-tree').locator(`[data-testid="file-entry"][data-path="${oracle.editedPath}"]`);
  await entry.click();
  await page.getByTestId('file-viewer').waitFor();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain(oracle.fixedSnippet);
  expect(await fileViewerText(page)).not.toContain(oracle.buggySnippet);

  // The filter narrows rows to the matching types, and clearing it brings them all back.
  const all = await rows(page).count();
  await page.getByTestId('event-filter').fill('tool.result');
  await expect.poll(() => rows(page).count()).toBe(oracle.toolNames.length);
  expect(new Set(await rowTypes(page))).toEqual(new Set(['tool.result']));
  await page.getByTestId('event-filter').fill('');
  await expect.poll(() => rows(page).count()).toBe(all);
});

test('clicking an event row shows that event as JSON', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');

  const toolResult = rows(page).and(page.locator('[data-type="tool.result"]')).first();
  const seq = Number(await toolResult.getAttribute('data-seq'));
  await toolResult.click();
  const json = page.getByTestId('event-json');
  await expect
    .poll(async () => {
      try {
        return (JSON.parse((await json.textContent()) ?? '') as { seq?: number }).seq;
      } catch {
        return undefined;
      }
    })
    .toBe(seq);
  const event = JSON.parse((await json.textContent()) ?? '') as Record<string, unknown>;
  expect(event).toMatchObject({ type: 'tool.result', seq, agentId: 'main' });
  expect(typeof event.toolUseId).toBe('string');

  // Another row replaces it.
  const first = rows(page).first();
  await first.click();
  await expect.poll(async () => JSON.parse((await json.textContent()) ?? '{}').type).toBe('run.start');
});

/** How far the event list is from its end (0: its last row is at the bottom of the view). */
const listGap = (page: import('playwright-core').Page) =>
  page.getByTestId('event-list').evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);

/** Whether a row is wholly inside the event list's visible box. */
const inListView = (row: import('playwright-core').Locator) =>
  row.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const box = el.closest('[data-testid="event-list"]')!.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  });

test('the event list follows a run to its last row', async ({ page }) => {
  // A run with subagent lanes and folds: many rows, some opening above the newest.
  await runToEnd(page, 'delegate-parallel-subagents');
  expect(await page.getByTestId('event-list').evaluate((el) => el.scrollHeight > 2 * el.clientHeight)).toBe(true);
  await expect.poll(() => listGap(page)).toBeLessThan(24);
  expect(await inListView(rows(page).last())).toBe(true);
});

test('scrolled up with the wheel while a run is held, the reader is left there as it goes on', async ({ page }) => {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'task-graph');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  const list = page.getByTestId('event-list');
  expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await expect.poll(() => listGap(page)).toBeLessThan(24);
  // With the wheel, as a reader does (a scroll the page makes itself never lets go of the bottom).
  const box = (await list.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -100_000);
  await expect.poll(() => list.evaluate((el) => el.scrollTop)).toBe(0);
  const before = await rows(page).count();
  await page.getByTestId('question-choice').nth(1).click();
  await page.getByTestId('question-answer').waitFor();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(await rows(page).count()).toBeGreaterThan(before);
  expect(await list.evaluate((el) => el.scrollTop)).toBe(0);
  expect(await inListView(rows(page).first())).toBe(true);
});
