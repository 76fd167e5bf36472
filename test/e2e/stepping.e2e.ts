import { expect, test } from './browser.ts';
import {
  activeNodes,
  blurInputs,
  openApp,
  rowSeqs,
  rowTypes,
  rows,
  runStatus,
  selectScenario,
  stepOnce,
} from './app.ts';

/**
 * The loop-diagram node for the event types whose stage is unambiguous (DESIGN.md §1-2); the
 * others (message.appended, transition, tool.proposed …) are not asserted here.
 */
function stageOf(type: string): string | undefined {
  if (type === 'model.request' || type === 'model.response') return 'model';
  if (type === 'tool.started' || type === 'tool.result') return 'tools';
  if (type === 'context.assembled') return 'context';
  return undefined;
}

test('each Step adds exactly one event row, in seq order', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  expect(await rows(page).count()).toBe(0);

  for (let expected = 1; expected <= 3; expected++) {
    expect(await stepOnce(page)).toBe(expected);
  }
  const seqs = await rowSeqs(page);
  expect(seqs).toHaveLength(3);
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
  expect(await rowTypes(page)).toContain('run.start');
  expect(await runStatus(page)).toBe('paused');
});

test('the loop diagram lights the stage of the events as they arrive', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');

  const seenStages = new Map<string, string[]>(); // stage → active nodes when its last event arrived
  const litNodes = new Set<string>();
  for (let i = 0; i < 120; i++) {
    await stepOnce(page);
    const types = await rowTypes(page);
    const last = types[types.length - 1] ?? '';
    const active = await activeNodes(page);
    expect(active.length, `at most one node is lit (after ${last})`).toBeLessThanOrEqual(1);
    active.forEach((n) => litNodes.add(n));
    const stage = stageOf(last);
    if (stage) seenStages.set(stage, active);
    if (seenStages.has('model') && seenStages.has('tools') && seenStages.has('context')) break;
    if (['done', 'error', 'aborted'].includes(await runStatus(page))) break;
  }
  expect(seenStages.get('model'), 'model.request / model.response light the model node').toEqual(['model']);
  expect(seenStages.get('tools'), 'tool.started / tool.result light the tools node').toEqual(['tools']);
  expect(seenStages.get('context'), 'context.assembled lights the context node').toEqual(['context']);
  expect(litNodes.size, 'the lit node changes as the run goes').toBeGreaterThanOrEqual(2);
});

test('the keyboard steps too: `s` and `.` (but not while typing in an input)', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await blurInputs(page);

  expect(await stepOnce(page, 'key', 's')).toBe(1);
  expect(await stepOnce(page, 'key', '.')).toBe(2);
  expect(await stepOnce(page, 'key', 's')).toBe(3);

  // Typing an "s" into the event filter must not step.
  const filter = page.getByTestId('event-filter');
  await filter.click();
  await page.keyboard.type('s');
  await filter.fill('');
  await blurInputs(page);
  // Stepping once more from here shows whether the typed "s" stepped: the count must go 3 → 4.
  expect(await stepOnce(page, 'key', 's')).toBe(4);
});

test('Stop on a paused run aborts it with closing events; Reset clears it', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  for (let i = 0; i < 4; i++) await stepOnce(page);
  expect(await runStatus(page)).toBe('paused');

  await page.getByTestId('btn-stop').click();
  await expect.poll(() => runStatus(page)).toBe('aborted');
  const types = await rowTypes(page);
  expect(types.length).toBeGreaterThan(4);
  expect(types[types.length - 1]).toBe('run.end');
  await rows(page).last().click();
  await expect
    .poll(async () => JSON.parse((await page.getByTestId('event-json').textContent()) || '{}').reason)
    .toBe('aborted');

  await page.getByTestId('btn-reset').click();
  await expect.poll(() => rows(page).count()).toBe(0);
  expect(await runStatus(page)).toBe('idle');
  // And the fresh run steps from the start again.
  expect(await stepOnce(page)).toBe(1);
  expect(await rowTypes(page)).toEqual(['run.start']);
});
