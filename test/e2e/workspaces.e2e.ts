/**
 * Workspaces (issue 24 §2): Learn, Inspect, Build and Team each lay the page out for one job. At
 * 1440×900 and 1024×768 what the job needs is visible and inside the first screen; the header's
 * switch and the keys 1–4 change it (not while typing), and it is remembered after a reload and
 * carried by a link (`?ws=`). With HP_SHOTS=<dir> set, each layout is also saved as a screenshot.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, test } from './browser.ts';
import { blurInputs, openApp, openTab, rows, selectScenario, waitForStatus } from './app.ts';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
] as const;

/** What each workspace shows inside the first screen, and what it leaves out. */
const LAYOUT = {
  learn: { shown: ['conversation', 'loop-diagram', 'event-stream'], hidden: ['tab-context', 'tab-workbench', 'tab-team'] },
  inspect: { shown: ['event-stream', 'context-panel', 'tab-hooks', 'tab-memory', 'tab-sessions'], hidden: ['loop-diagram', 'files-panel', 'tab-scenario'] },
  build: { shown: ['files-panel', 'build-terminal', 'tab-workbench', 'tab-tools', 'tab-mcp', 'tab-settings', 'tab-merge'], hidden: ['loop-diagram', 'tab-context'] },
  team: { shown: ['agent-lanes', 'team-empty', 'tab-todos', 'tab-tasks'], hidden: ['loop-diagram', 'files-panel', 'tab-workbench'] },
} as const;

type Space = keyof typeof LAYOUT;
const SPACES = Object.keys(LAYOUT) as Space[];

const current = (page: Page) => page.getByTestId('workspace').getAttribute('data-ws');

/** The element is on screen: visible, and its box inside the viewport (nothing needed scrolls away). */
async function inFirstScreen(page: Page, testId: string, size: { width: number; height: number }): Promise<string | null> {
  const el = page.getByTestId(testId).first();
  if (!(await el.isVisible())) return `${testId} is not visible`;
  const box = await el.boundingBox();
  if (!box) return `${testId} has no box`;
  if (box.y < 0 || box.x < 0 || box.y + Math.min(box.height, 120) > size.height || box.x + Math.min(box.width, 120) > size.width)
    return `${testId} lies outside the first screen: ${JSON.stringify(box)}`;
  return null;
}

/** Build: the editor above, the terminal below it in the same column, both wholly on screen. */
async function editorAboveTerminal(page: Page, size: { width: number; height: number }): Promise<void> {
  await expect.poll(() => page.getByTestId('terminal').getAttribute('data-loaded'), { timeout: 30_000 }).toBe('true');
  const editor = (await page.getByTestId('files-panel').boundingBox())!;
  const term = (await page.getByTestId('build-terminal').boundingBox())!;
  expect(term.y, 'the terminal starts below the editor').toBeGreaterThanOrEqual(editor.y + editor.height);
  // One column: the terminal lies under the editor, not beside it.
  expect(Math.abs(term.x - editor.x)).toBeLessThan(2);
  expect(Math.abs(term.width - editor.width)).toBeLessThan(2);
  for (const [name, b] of [['editor', editor], ['terminal', term]] as const) {
    expect(b.y, `${name} top at ${size.width}`).toBeGreaterThanOrEqual(0);
    expect(b.y + b.height, `${name} bottom at ${size.width}`).toBeLessThanOrEqual(size.height);
    expect(b.x + b.width, `${name} right at ${size.width}`).toBeLessThanOrEqual(size.width);
  }
  // The editor is the large part, and the terminal has room for a few lines.
  expect(editor.height).toBeGreaterThan(term.height);
  expect((await page.getByTestId('terminal').boundingBox())!.height).toBeGreaterThan(90);
}

for (const size of SIZES) {
  test(`each workspace shows what its job needs in the first screen at ${size.width}×${size.height}`, async ({ page }) => {
    await page.setViewportSize(size);
    await openApp(page);
    await selectScenario(page, 'fix-a-bug');
    await page.getByTestId('btn-run').click();
    await waitForStatus(page, 'done');
    // An event is selected, so Inspect shows it beside its panels.
    await rows(page).first().click();
    for (const space of SPACES) {
      await page.getByTestId(`ws-${space}`).click();
      await expect.poll(() => current(page)).toBe(space);
      expect(await page.getByTestId(`ws-${space}`).getAttribute('aria-pressed')).toBe('true');
      // Polled: a lazily loaded panel (the Team view, the Context panel) appears a moment after the switch.
      const problems = async () => (await Promise.all(LAYOUT[space].shown.map((id) => inFirstScreen(page, id, size)))).filter(Boolean);
      await expect.poll(problems, { message: `${space} at ${size.width}` }).toEqual([]);
      for (const id of LAYOUT[space].hidden) expect(await page.getByTestId(id).first().isVisible(), `${id} hidden in ${space}`).toBe(false);
      if (space === 'build') await editorAboveTerminal(page, size);
      // No row of more than eight tabs.
      expect(await page.locator('[role="tablist"][aria-label$=" panels"] [role="tab"]').count()).toBeLessThanOrEqual(8);
      if (process.env.HP_SHOTS) {
        mkdirSync(process.env.HP_SHOTS, { recursive: true });
        await page.screenshot({ path: `${process.env.HP_SHOTS}/${space}-${size.width}x${size.height}.png` });
      }
    }
  });
}

test('Team without a team or subagents has one empty state: what a team is, and the lessons that start one', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await page.getByTestId('ws-team').click();
  const empty = page.getByTestId('team-empty');
  await empty.waitFor();
  expect(await empty.textContent()).toMatch(/A team is a lead agent.*spawn_teammate.*Subagents/s);
  // One note, not two: the Team view (with its own "no teammates" line) waits for a second agent.
  expect(await page.getByTestId('team-view').count()).toBe(0);
  expect(await page.locator('#tabpanel-team').getByText('No teammates in this run').count()).toBe(0);
  expect(await page.getByTestId('team-lane').count()).toBe(0);
  const open = page.getByTestId('team-empty-open');
  expect(await open.evaluateAll((els) => els.map((el) => el.getAttribute('data-lesson')))).toEqual(['team-split-tasks', 'delegate-parallel-subagents']);
  // Its button opens the teams lesson, here in Team.
  await open.first().click();
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('team-split-tasks');
  expect(await current(page)).toBe('team');
});

test('Team draws a lane for the main agent and each subagent', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'delegate-parallel-subagents');
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await page.keyboard.press('4');
  await expect.poll(() => page.getByTestId('agent-lane').count()).toBe(3);
  expect(await page.getByTestId('agent-lane').first().getAttribute('data-agent')).toBe('main');
  expect(await page.getByTestId('agent-lanes').isVisible()).toBe(true);
  // Subagents but no teammates: the lanes, then the Team view's line about teammates; no empty state.
  expect(await page.getByTestId('team-empty').count()).toBe(0);
  await expect.poll(() => page.getByTestId('team-view').textContent()).toContain('No teammates in this run');
});

test('the separator between the editor and the terminal moves by drag and by key, and is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, '/?ws=build');
  const grip = page.getByTestId('editor-split');
  const editorHeight = async () => (await page.getByTestId('files-panel').boundingBox())!.height;
  const before = await editorHeight();
  const start = Number(await grip.getAttribute('aria-valuenow'));
  await grip.focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  expect(Number(await grip.getAttribute('aria-valuenow'))).toBe(start - 10);
  expect(await editorHeight()).toBeLessThan(before);
  // Dragging it down to the bottom stops where the terminal still has room.
  const box = (await grip.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, 890, { steps: 4 });
  await page.mouse.up();
  expect(await grip.getAttribute('aria-valuenow')).toBe('80');
  expect(await editorHeight()).toBeGreaterThan(before);
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  expect(await page.getByTestId('editor-split').getAttribute('aria-valuenow')).toBe('80');
  // Outside Build the files column has no terminal and no separator.
  await page.getByTestId('ws-learn').click();
  expect(await page.getByTestId('build-terminal').isVisible()).toBe(false);
  expect(await page.getByTestId('editor-split').isVisible()).toBe(false);
});

test('keys 1–4 switch the workspace, except while typing', async ({ page }) => {
  await openApp(page);
  await blurInputs(page);
  await page.keyboard.press('3');
  await expect.poll(() => current(page)).toBe('build');
  await page.keyboard.press('2');
  await expect.poll(() => current(page)).toBe('inspect');
  await page.keyboard.press('4');
  await expect.poll(() => current(page)).toBe('team');
  await page.keyboard.press('1');
  await expect.poll(() => current(page)).toBe('learn');
  // Typing a 3 in the prompt is a 3, not a switch.
  const input = page.getByTestId('event-filter');
  await input.click();
  await page.keyboard.type('3');
  expect(await input.inputValue()).toContain('3');
  expect(await current(page)).toBe('learn');
});

test('the workspace is remembered after a reload, and a ?ws= link wins over it', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('ws-build').click();
  await expect.poll(() => new URL(page.url()).searchParams.get('ws')).toBe('build');
  expect(await page.evaluate(() => localStorage.getItem('hp.workspace'))).toBe('build');
  await page.goto(new URL(page.url()).origin + '/');
  await page.getByTestId('scenario-picker').waitFor();
  expect(await current(page)).toBe('build');
  await openApp(page, '/?ws=team');
  expect(await current(page)).toBe('team');
  await openApp(page, '/?ws=nonsense');
  // An unknown name falls back to the remembered one (team, just stored by the link).
  expect(await current(page)).toBe('team');
});

test("the scenario's share link carries the workspace, and opening a tab switches to its workspace", async ({ page }) => {
  await openApp(page, '/?ws=learn');
  await openTab(page, 'scenario');
  await page.getByTestId('btn-copy-link').click();
  const url = new URL(await page.getByTestId('link-url').inputValue());
  expect(url.searchParams.get('ws')).toBe('learn');
  expect(url.hash.startsWith('#s=')).toBe(true);
  await openTab(page, 'hooks');
  expect(await current(page)).toBe('inspect');
  await openTab(page, 'mcp');
  expect(await current(page)).toBe('build');
  // Each workspace keeps the tab it had open.
  await page.getByTestId('ws-inspect').click();
  expect(await page.getByTestId('tab-hooks').getAttribute('aria-selected')).toBe('true');
});
