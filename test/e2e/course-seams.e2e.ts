/**
 * Small seams of the course (issue 24 §1): "Run it with this change" runs the variant; a copied
 * link never shows under another scenario; descriptions render their code spans; the guided
 * start says which button stops at breakpoints.
 */
import { expect, firstVisitContext, inject, test } from './browser.ts';
import { openApp, openTab, rows, rowTypes, selectScenario, stepOnce, waitForStatus } from './app.ts';

test('"Run it with this change" loads the variant and runs it', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'refusal');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await page.getByTestId('btn-now-try').click();
  // One click: the variant (ordinary answer instead of a refusal) is loaded and runs to its end.
  await openTab(page, 'scenario');
  await expect.poll(() => page.getByTestId('scenario-info').locator('h2').textContent()).toContain('now try');
  await expect.poll(() => rows(page).and(page.locator('[data-type="run.end"]')).count()).toBe(1);
  await waitForStatus(page, 'done');
  expect(await rows(page).and(page.locator('[data-type="run.end"]')).textContent()).toContain('completed');
});

test('a copied link goes away once another scenario is open; descriptions render code spans', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'deny-beats-allow');
  await openTab(page, 'scenario');
  // The button shows the link's size before copying (made when the page is idle): the size copied.
  const sizeBefore = page.getByTestId('link-size-before');
  await expect.poll(() => sizeBefore.getAttribute('aria-busy')).toBe('false');
  const shown = await sizeBefore.textContent();
  await page.getByTestId('btn-copy-link').click();
  await page.getByTestId('copy-link-result').waitFor();
  expect(await page.getByTestId('link-size').textContent()).toBe(shown);
  await selectScenario(page, 'ask-permission');
  await expect.poll(() => page.getByTestId('copy-link-result').count()).toBe(0);
  // Another scenario: its own link's size, made again once idle (the size its copy then has).
  await expect.poll(() => sizeBefore.getAttribute('aria-busy')).toBe('false');
  const shownNext = await sizeBefore.textContent();
  await page.getByTestId('btn-copy-link').click();
  await page.getByTestId('copy-link-result').waitFor();
  expect(await page.getByTestId('link-size').textContent()).toBe(shownNext);
  const desc = page.getByTestId('scenario-description');
  expect(await desc.textContent()).not.toContain('`');
  expect(await desc.locator('code').count()).toBeGreaterThan(0);
});

test('the guided start says Run stops at questions and Continue at breakpoints', async ({ browser }) => {
  const context = await firstVisitContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(inject('baseUrl'));
    const text = (await page.getByTestId('guided-start').textContent()) ?? '';
    expect(text).toMatch(/Continue \(C\) also stops at your breakpoints/);
    expect(text).not.toMatch(/Run \(R\)[^.;]*breakpoint/);
  } finally {
    await context.close();
  }
});

test('the event JSON and the event list give an event of a follow-up run one number', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'lesson-follow-ups');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const firstRun = await rows(page).count();
  await expect.poll(() => page.getByTestId('prompt-input').inputValue()).not.toBe('');
  await page.getByTestId('btn-send').click();
  await waitForStatus(page, 'done');
  // The second run's first event: the list says firstRun + 1; its own run counts it 1.
  const row = rows(page).nth(firstRun);
  expect(await row.getAttribute('data-log-seq')).toBe(String(firstRun + 1));
  expect(await row.getAttribute('data-seq')).toBe('1');
  await row.click();
  const json = page.getByTestId('event-json');
  await json.waitFor();
  const shown = JSON.parse((await json.textContent()) ?? '{}') as { seq?: number; runSeq?: number; type?: string };
  expect(shown).toMatchObject({ type: 'run.start', seq: firstRun + 1, runSeq: 1 });
  expect(await page.getByTestId('event-stream').locator('.detail-head').textContent()).toContain(`event #${firstRun + 1}`);
});

test('author mode warns about a question placed after the transition that answers it, before and after adding it', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openTab(page, 'lesson');
  await page.getByTestId('author-toggle').check();
  // Step until a transition is on screen: a question placed here about it would give itself away.
  while ((await rowTypes(page)).at(-1) !== 'transition') await stepOnce(page);
  await rows(page).last().click();
  const reason = (JSON.parse((await page.getByTestId('event-json').textContent()) ?? '{}') as { reason: string }).reason;
  const other = reason === 'completed' ? 'next_turn' : 'completed';
  await page.getByTestId('question-input').fill('What does the loop do next?');
  await page.getByTestId('question-choices').fill(`${other}\n${reason}`);
  await page.getByTestId('question-answer-select').selectOption('1');
  const draft = page.getByTestId('question-placement-warning');
  await draft.waitFor();
  expect(await draft.textContent()).toMatch(/already answers this question/);
  await page.getByTestId('btn-add-question').click();
  // Added (the author may step back and move it), and the warning stays beside it.
  const added = page.getByTestId('authored-question').filter({ hasText: 'What does the loop' });
  await added.waitFor();
  expect(await added.getByTestId('authored-question-warning').textContent()).toMatch(/place the question before it/);
});

test('a subagent lesson run shows its progress (events pulled, the agent working) while it pulls', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'delegate-parallel-subagents');
  // Every progress line the page paints, recorded as it appears (the run may be quick on a quiet machine).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { progressSeen: string[] }).progressSeen = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="run-progress"]');
      if (el) seen.push(`${el.getAttribute('data-pulled')}|${el.getAttribute('data-agent')}`);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
  const pulled = seen.map((s) => Number(s.split('|')[0]));
  // More than one count painted, rising: the page drew while the run pulled.
  expect(new Set(pulled).size).toBeGreaterThan(1);
  expect(pulled).toEqual([...pulled].sort((a, b) => a - b));
  // A subagent was named as the one working at some point.
  expect(seen.some((s) => !s.endsWith('|main'))).toBe(true);
  // Gone once the run is over.
  expect(await page.getByTestId('run-progress').count()).toBe(0);
});
