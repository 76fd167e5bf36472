/**
 * The merge view in Chromium: the isolated-workspaces lesson held at its question (just after the
 * overlap was detected) shows each workspace's diffs and the refused file; the subagent lane
 * opens it; resolving the conflict by taking the agent's version writes the live file (a user
 * `sandbox.changed` row, and the Files panel shows the new text); axe finds nothing serious in
 * either theme.
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { expect, test } from './browser.ts';
import { fileViewerText, holdAtQuestions, openApp, openTab, rows, rowTypes, selectScenario } from './app.ts';



/** The lesson, run until its question holds: right after the second merge was refused. */
async function heldAtConflict(page: Page): Promise<void> {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'isolated-workspaces-overlap');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor({ timeout: 120_000 });
  await expect.poll(() => rows(page).count()).toBe(299);
}

test('the merge view shows the overlap, and taking the agent\'s version updates the Files panel', async ({ page }) => {
  await heldAtConflict(page);
  expect(await rows(page).last().getAttribute('data-type')).toBe('workspace.conflict');
  await page.getByTestId('ws-build').click();
  expect(await page.getByTestId('merge-count').textContent()).toBe('1');

  // Reached from the second subagent's lane.
  const lanes = page.getByTestId('conversation').getByTestId('subagent-lane');
  await expect.poll(() => lanes.getByTestId('lane-open-merge').count()).toBe(2);
  await lanes.nth(1).getByTestId('lane-open-merge').click();
  const view = page.getByTestId('merge-view');
  await view.waitFor();
  expect(await page.getByTestId('tab-merge').getAttribute('aria-selected')).toBe('true');

  const workspaces = view.getByTestId('merge-workspace');
  expect(await workspaces.count()).toBe(2);
  // The first agent's change merged cleanly; the second's new file merged, its settings.env did not.
  expect(await workspaces.nth(0).getByTestId('merge-file').evaluateAll((els) => els.map((e) => [e.getAttribute('data-path'), e.querySelector('.tag')?.textContent]))).toEqual([['settings.env', 'merged']]);
  expect(await workspaces.nth(1).getByTestId('merge-file').evaluateAll((els) => els.map((e) => [e.getAttribute('data-path'), e.querySelector('.tag')?.textContent]))).toEqual([
    ['docs/deploy.md', 'merged'],
    ['settings.env', 'conflict'],
  ]);
  const conflict = workspaces.nth(1).getByTestId('merge-conflict');
  expect(await conflict.getAttribute('data-path')).toBe('settings.env');
  expect(await conflict.getByTestId('conflict-current').textContent()).toContain('MODE=prod');
  expect(await conflict.getByTestId('conflict-mine').textContent()).toContain('MODE=staging');
  expect(await conflict.textContent()).toMatch(/agent-general-purpose_\S+ merged its change to this file first/);

  // The live file still holds the first merge.
  const entry = page.getByTestId('file-tree').locator('[data-testid="file-entry"][data-path="/home/project/settings.env"]');
  await entry.click();
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain('MODE=prod');

  // Keyboard: focus the button and press Enter.
  const before = (await rowTypes(page)).length;
  await conflict.getByTestId('take-mine').focus();
  await page.keyboard.press('Enter');
  await conflict.getByTestId('conflict-resolved').waitFor();
  expect(await conflict.getAttribute('data-resolved')).toBe('yes');
  // The tab's badge counts open conflicts only.
  await expect.poll(() => page.getByTestId('merge-count').count()).toBe(0);
  await expect.poll(async () => (await rowTypes(page)).length).toBe(before + 1);
  expect((await rowTypes(page)).at(-1)).toBe('sandbox.changed');
  await expect.poll(() => fileViewerText(page), { timeout: 30_000 }).toContain('MODE=staging');
  await page.screenshot({ path: '/tmp/ws-merge-resolved.png' });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe-core: the merge view with a conflict and an open edit has no serious violations (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await heldAtConflict(page);
    await openTab(page, 'merge');
    const conflict = page.getByTestId('merge-conflict');
    await conflict.waitFor();
    expect(await seriousViolations(page, '[data-testid="merge-view"]'), 'with the conflict').toEqual([]);
    await conflict.getByTestId('take-edit').click();
    await conflict.getByTestId('conflict-edit').waitFor();
    expect(await conflict.getByTestId('conflict-edit').inputValue()).toContain('MODE=staging');
    expect(await seriousViolations(page, '[data-testid="merge-view"]'), 'editing').toEqual([]);
    await page.screenshot({ path: `/tmp/ws-merge-${scheme}.png`, fullPage: false });
  });
}

const SHOTS = process.env.SHOTS_DIR ?? '/tmp';

/** The git variant held at its question: both branches committed, the second merge in progress. */
async function heldAtGitConflict(page: Page): Promise<void> {
  await holdAtQuestions(page);
  await openApp(page);
  await selectScenario(page, 'isolated-workspaces-git');
  await page.getByTestId('btn-run').click();
  await page.getByTestId('lesson-question').waitFor();
  await expect.poll(() => rows(page).count()).toBe(300);
}

test('git-backed workspaces: the merge view names each branch, its commit, the merge commit and the merge in progress', async ({ page }) => {
  await heldAtGitConflict(page);
  expect(await rows(page).last().getAttribute('data-type')).toBe('workspace.conflict');
  await openTab(page, 'merge');
  const view = page.getByTestId('merge-view');
  await view.waitFor();
  const branches = view.getByTestId('merge-branch');
  expect(await branches.count()).toBe(2);
  expect(await branches.evaluateAll((els) => els.map((e) => e.getAttribute('data-branch')))).toEqual([expect.stringMatching(/^agent\/general-purpose-\S+$/), expect.stringMatching(/^agent\/general-purpose-\S+$/)]);
  // Whichever agent finished first merged with a merge commit; the other's overlap left the merge in progress.
  const refused = view.getByTestId('merge-workspace').filter({ has: page.getByTestId('merge-conflict') });
  const merged = view.getByTestId('merge-workspace').filter({ hasNot: page.getByTestId('merge-conflict') });
  expect(await merged.getByTestId('merge-branch').textContent()).toMatch(/On branch agent\/\S+, from [0-9a-f]{7}\s+· its commit [0-9a-f]{7}\s+· merged by merge commit [0-9a-f]{7}/);
  expect(await refused.getByTestId('merge-branch').textContent()).toMatch(/its commit [0-9a-f]{7}\s+· merge in progress/);
  // Overlap detection is the same as without git: the second agent's settings.env is refused.
  const conflict = refused.getByTestId('merge-conflict');
  expect(await conflict.getAttribute('data-path')).toBe('settings.env');
  expect(await conflict.getByTestId('conflict-current').textContent()).toContain('MODE=prod');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page, '[data-testid="merge-view"]'), scheme).toEqual([]);
    for (const [w, h] of [[1440, 900], [390, 844]] as const) {
      await page.setViewportSize({ width: w, height: h });
      await openTab(page, 'merge');
      await view.waitFor();
      await page.screenshot({ path: `${SHOTS}/merge-git-${scheme}-${w}.png` });
    }
  }
});

test('Learn shows the conflict it cannot resolve, and its button opens Merge in Build', async ({ page }) => {
  await heldAtConflict(page);
  // The lesson holds in Learn: the notice is there, on screen, beside the question.
  expect(await page.getByTestId('workspace').getAttribute('data-ws')).toBe('learn');
  const notice = page.getByTestId('conflict-notice');
  await notice.waitFor();
  expect(await notice.getAttribute('data-count')).toBe('1');
  expect(await notice.textContent()).toContain('could not be merged');
  const box = (await notice.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
  expect(await seriousViolations(page, '[data-testid="conflict-notice"]')).toEqual([]);
  await page.getByTestId('conflict-notice-open').click();
  expect(await page.getByTestId('workspace').getAttribute('data-ws')).toBe('build');
  expect(await page.getByTestId('tab-merge').getAttribute('aria-selected')).toBe('true');
  await page.getByTestId('merge-view').waitFor();
  // In Build the Merge tab's own count says it; no notice on top.
  expect(await notice.count()).toBe(0);
  // Resolved: the notice is gone from Learn too.
  await page.getByTestId('merge-view').getByTestId('take-mine').click();
  await expect.poll(() => page.getByTestId('merge-count').count()).toBe(0);
  await page.getByTestId('ws-learn').click();
  expect(await notice.count()).toBe(0);
});
