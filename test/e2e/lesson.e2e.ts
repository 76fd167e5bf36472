import { expect, test } from './browser.ts';
import { fileViewerText, openApp, openTab, selectScenario, waitForStatus } from './app.ts';

test('a built-in lesson: notes beside the steps, a question that holds Run, and a second prompt that continues', async ({ page }) => {
  await openApp(page);
  // Questions hold Run (the e2e fixture turns that off for tests not about lessons).
  await openTab(page, 'course');
  await page.getByTestId('hold-questions').check();
  await selectScenario(page, 'lesson-follow-ups');

  // Run stops at the question: it is shown before the transition it asks about.
  await page.getByTestId('btn-run').click();
  const question = page.getByTestId('lesson-question');
  await question.waitFor();
  expect(await question.getAttribute('data-seq')).toBe('32');
  expect(await page.getByTestId('question-answer').count()).toBe(0);
  await expect.poll(() => page.getByTestId('event-list').getByTestId('event-row').count()).toBe(32);
  // A note reached so far is beside the steps, rendered from markdown.
  expect(await page.getByTestId('step-note').first().locator('strong').textContent()).toBe('exact request');

  await page.getByTestId('question-choice').first().click();
  const answer = page.getByTestId('question-answer');
  await answer.waitFor();
  expect(await answer.textContent()).toContain('next_turn');

  // The rest of the first prompt, then the second prompt is offered, pre-filled.
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => page.getByTestId('prompt-input').inputValue()).toBe('Now add three ideas to notes.md as bullet points.');
  await page.getByTestId('btn-send').click();
  await waitForStatus(page, 'done');

  // The scripted model continued its script in the same sandbox: the file has the three ideas.
  await page.getByTestId('file-tree').locator('[data-testid="file-entry"][data-path="/home/project/notes.md"]').click();
  await expect.poll(() => fileViewerText(page)).toContain('Share links for lessons');
});
