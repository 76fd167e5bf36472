import { expect, firstVisitContext, inject, test } from './browser.ts';
import { openApp, openTab, rows, runToEnd, waitForStatus } from './app.ts';
import { courseLessons } from '../../src/scenarios/course.ts';

const [first, second] = courseLessons();

test('a first visit: the guided start walks into lesson 1, its question, "next lesson", and progress survives a reload', async ({ browser }) => {
  const context = await firstVisitContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(inject('baseUrl'));
    const guide = page.getByTestId('guided-start');
    await guide.waitFor();
    expect(await guide.textContent()).toContain('Step');
    await page.getByTestId('btn-guide-start').click();
    await expect.poll(() => guide.count()).toBe(0);
    await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe(first!.id);
    expect(await page.getByTestId('lesson-goal').textContent()).toContain(first!.lesson.goal);

    // Run stops at the question, before the transition it asks about.
    await page.getByTestId('btn-run').click();
    const q = page.getByTestId('lesson-question');
    await q.waitFor();
    const question = first!.questions[0]!;
    expect(await q.getAttribute('data-seq')).toBe(String(question.atSeq));
    await expect.poll(() => rows(page).count(), { timeout: 45_000 }).toBe(question.atSeq);
    await page.locator(`[data-testid="question-choice"][data-index="${question.answer}"]`).click();
    expect(await page.getByTestId('question-answer').textContent()).toContain('Right');

    // On to the end (answering each question right), then the lesson's end offers the next one.
    for (;;) {
      await page.getByTestId('btn-run').click();
      await expect
        .poll(
          async () => ((await page.getByTestId('run-status').getAttribute('data-status')) === 'done' ? 'done' : (await page.getByTestId('btn-reveal').count()) > 0 ? 'q' : ''),
          { timeout: 45_000 },
        )
        .not.toBe('');
      if ((await page.getByTestId('btn-reveal').count()) === 0) break;
      await page.getByTestId('btn-reveal').click();
    }
    await waitForStatus(page, 'done');
    const next = page.getByTestId('btn-next-lesson');
    await next.waitFor();
    expect(await next.getAttribute('data-lesson')).toBe(second!.id);
    expect(await page.getByTestId('lesson-end').textContent()).toContain('Now try');

    // Progress is in IndexedDB: after a reload the course view shows lesson 1 finished, its answer kept.
    await page.reload();
    await page.getByTestId('scenario-picker').waitFor();
    expect(await page.getByTestId('guided-start').count()).toBe(0);
    await openTab(page, 'course');
    const row = page.locator(`[data-testid="course-lesson"][data-lesson="${first!.id}"]`);
    await expect.poll(() => row.getAttribute('data-done')).toBe('true');
    expect(await row.getByTestId('course-answered').textContent()).toContain(`1 of ${first!.questions.length}`);
    expect(await page.locator(`[data-testid="course-lesson"][data-lesson="${second!.id}"]`).getAttribute('data-done')).toBe('false');

    // The guided start re-opens from the Course tab, and "next lesson" opens lesson 2.
    await page.getByTestId('btn-open-guide').click();
    await page.getByTestId('btn-guide-skip').click();
    await page.locator(`[data-testid="course-lesson"][data-lesson="${second!.id}"] button.open`).click();
    await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe(second!.id);
  } finally {
    await context.close();
  }
});

test('explain this event: from a row and from a stage, with the rule that decided and a link to its lesson', async ({ page }) => {
  await runToEnd(page, 'deny-beats-allow');
  // The second bash decision: denied by the deny rule although an allow rule matches too.
  const deny = rows(page).and(page.locator('[data-type="permission.decision"]')).nth(1);
  await deny.click();
  await page.getByTestId('btn-explain').click();
  const view = page.getByTestId('explain-view');
  await view.waitFor();
  expect(await page.getByTestId('explain-why').textContent()).toContain('Bash(rm -rf *)');
  expect(await page.getByTestId('explain-stage').textContent()).toContain('deny → ask → allow');
  // A glossary term opens its definition.
  await view.getByTestId('glossary-term').first().click();
  await page.getByTestId('glossary-definition').waitFor();

  // A transition explains its reason and the line of the loop that stamped it.
  await rows(page).and(page.locator('[data-type="transition"]')).first().click();
  expect(await page.getByTestId('explain-reason').textContent()).toContain('tool site');
  const link = page.getByTestId('explain-lesson');
  expect(await link.getAttribute('data-lesson')).toBe('parallel-exploration');

  // A stage in a strip has its own explanation.
  await page.getByTestId('stage').first().click();
  expect(await page.getByTestId('stage-explain').textContent()).toContain('Otherwise');

  // Following the lesson link opens that lesson, ready to run.
  await link.click();
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('parallel-exploration');
  await expect.poll(() => rows(page).count()).toBe(0);
  expect(await page.getByTestId('lesson-goal').textContent()).toContain(courseLessons().find((l) => l.id === 'parallel-exploration')!.lesson.goal);
});

test('a lesson link opens the lesson at a step', async ({ page }) => {
  await openApp(page, '/#lesson=fix-a-bug&step=12');
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('fix-a-bug');
  await expect.poll(() => rows(page).count(), { timeout: 45_000 }).toBe(12);
  await waitForStatus(page, 'paused');
});
