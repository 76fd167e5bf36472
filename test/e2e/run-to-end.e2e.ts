import { expect, test } from './browser.ts';
import { fileViewerText, rowSeqs, rowTypes, rows, runToEnd } from './app.ts';
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
