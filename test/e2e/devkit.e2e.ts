/**
 * The developer's workbench in Chromium: a diff of an agent edit from its tool card; the terminal
 * on the live sandbox (output, the user's own event in the log, Ctrl-C, no CSP violation); a
 * `.claude/` folder imported through `<input webkitdirectory>` with its problems by file and line
 * and each value's scope, then run (after trust) with its settings read from the sandbox; axe on
 * the workbench tab in both themes.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { downloadBytes, expect, test } from './browser.ts';
import { openApp, openTab, rowTypes, runToEnd, selectScenario, stepOnce } from './app.ts';



/** Collects CSP violations the page reports (an inline style or script xterm needed and the CSP refused). */
async function watchCsp(page: Page): Promise<void> {
  await page.addInitScript(() => {
    if (window !== window.top) return;
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  });
}

const terminalText = (page: Page) => page.getByTestId('terminal').locator('.xterm-rows').innerText();

test('View diff on an edit card shows the changed line, before and after', async ({ page }) => {
  await runToEnd(page, 'fix-a-bug');
  const card = page.locator('[data-testid="tool-call"][data-tool="edit"]').first();
  await card.getByTestId('btn-view-diff').click();
  const diff = card.getByTestId('edit-diff');
  await diff.locator('[data-kind="del"]').first().waitFor();
  expect(await diff.locator('[data-kind="del"]').allInnerTexts()).toEqual([expect.stringContaining('total=$((total - n))')]);
  expect(await diff.locator('[data-kind="add"]').allInnerTexts()).toEqual([expect.stringContaining('total=$((total + n))')]);
  expect(await diff.locator('header').innerText()).toContain('calc.sh');
  await diff.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/devkit-diff.png' });
  // Keyboard: the button toggles it closed again.
  await card.getByTestId('btn-view-diff').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => card.getByTestId('edit-diff').count()).toBe(0);
  // A bash card has no diff button.
  expect(await page.locator('[data-testid="tool-call"][data-tool="bash"]').first().getByTestId('btn-view-diff').count()).toBe(0);
});

test('the terminal runs a command on the live sandbox: output, the user’s own events, Ctrl-C, no CSP violation', async ({ page }) => {
  await watchCsp(page);
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await stepOnce(page);
  // Nothing is refused at start-up (zod runs jitless: no eval probe, src/zod-jitless.ts), nor by the terminal.
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  await openTab(page, 'workbench');
  await expect.poll(() => page.getByTestId('terminal').getAttribute('data-loaded'), { timeout: 30_000 }).toBe('true');
  await page.getByTestId('terminal').click();
  await page.keyboard.type('echo hello-terminal > t.txt && cat t.txt');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page), { timeout: 30_000 }).toMatch(/hello-terminal\s*\n.*\$/s);
  await expect.poll(async () => (await rowTypes(page)).slice(-2)).toEqual(['terminal.command', 'sandbox.changed']);
  const row = page.getByTestId('event-list').locator('[data-type="terminal.command"]');
  expect(await row.innerText()).toContain('echo hello-terminal');

  // History: Up brings the command back.
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => terminalText(page)).toMatch(/\$ echo hello-terminal > t\.txt && cat t\.txt\s*$/);
  await page.keyboard.press('Control+c');

  // Ctrl-C stops a running command.
  await page.keyboard.type('echo waiting; sleep 60');
  await page.keyboard.press('Enter');
  await expect.poll(() => terminalText(page)).toContain('waiting');
  await page.keyboard.press('Control+c');
  await expect.poll(async () => page.getByTestId('event-list').locator('[data-type="terminal.command"]').count()).toBe(2);
  expect(await page.getByTestId('event-list').locator('[data-type="terminal.command"]').nth(1).innerText()).toContain('Ctrl-C');

  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  await page.screenshot({ path: '/tmp/devkit-terminal.png' });
});

test('Export .claude/ downloads a zip Claude Code reads: settings with its schema, the scenario’s rules, no key', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'layered-claude-settings');
  await stepOnce(page);
  await openTab(page, 'workbench');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('claude-export').click()]);
  const bytes = await downloadBytes(download);
  const files = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(bytes))).map(([p, b]) => [p, strFromU8(b)]));
  expect(Object.keys(files).sort()).toEqual(['.claude/settings.json', '.claude/settings.local.json', 'CLAUDE.md']);
  const project = JSON.parse(files['.claude/settings.json']!);
  expect(project.$schema).toMatch(/claude-code-settings/);
  expect(project.permissions).toEqual({ deny: ['Bash(rm *)'], defaultMode: 'plan' });
  expect(JSON.parse(files['.claude/settings.local.json']!).permissions.defaultMode).toBe('acceptEdits');
  for (const text of Object.values(files)) expect(text).not.toMatch(/sk-ant|api[_-]?key/i);
  expect(await page.getByTestId('claude-export-note').innerText()).toContain('3 file(s)');
});

test('the layered lesson in the page: settings.read names the deciding scopes, and what-if starts from the rules the run really used', async ({ page }) => {
  await runToEnd(page, 'layered-claude-settings');
  const read = page.getByTestId('event-list').locator('[data-type="settings.read"]');
  expect(await read.innerText()).toContain('mode acceptEdits (local)');
  // The write's mode stage names the mode and the scope it came from (local over the project's plan).
  const write = page.locator('[data-testid="tool-call"][data-tool="write"]').first();
  const modeStage = write.locator('[data-testid="stage"][data-stage="mode"]');
  expect(await modeStage.getByTestId('stage-mode').innerText()).toBe('acceptEdits');
  expect(await modeStage.getAttribute('title')).toContain('mode acceptEdits — from local settings');
  await modeStage.click();
  await expect.poll(() => write.getByTestId('stage-detail').innerText()).toContain('mode acceptEdits — from local settings');
  expect(await write.getByTestId('stage-explain').innerText()).toContain('Here the mode is acceptEdits — from local settings.');
  const bash = page.locator('[data-testid="tool-call"][data-tool="bash"]').first();
  expect(await bash.innerText()).toContain('Bash(rm *) (project)');
  await bash.getByTestId('btn-what-if').click();
  // The project's deny (read from the sandbox) is in the what-if's starting rules, so nothing changed = still denied.
  expect(await bash.getByTestId('what-if-rules').inputValue()).toContain('deny: Bash(rm *)');
  await expect.poll(() => bash.getByTestId('what-if-result').getAttribute('data-outcome')).toBe('deny');
});

function claudeFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'claude-import-'));
  const files: Record<string, string> = {
    'my-app/.claude/settings.json': JSON.stringify({ permissions: { defaultMode: 'plan', deny: ['Bash(rm *)'] } }, null, 2),
    'my-app/.claude/settings.local.json': JSON.stringify({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash(rm *)'] } }, null, 2),
    'my-app/.claude/agents/broken.md': '---\nname: broken\ndescription: [unclosed\n---\nbody\n',
    'my-app/.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews a diff.\n---\nYou review.\n',
    'my-app/.mcp.json': '{\n  "mcpServers": {\n    "nothing": {}\n  }\n}\n',
    'my-app/CLAUDE.md': '# my app\n',
    'my-app/notes.txt': 'hello\n',
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return join(root, 'my-app');
}

test('import a .claude/ folder: problems by file and line, each value’s scope, then a trusted run reads its settings', async ({ page }) => {
  await openApp(page);
  await selectScenario(page, 'fix-a-bug');
  await openTab(page, 'workbench');
  await page.getByTestId('claude-import-folder').setInputFiles(claudeFolder());
  const result = page.getByTestId('claude-import-result');
  await result.waitFor();
  const problems = await page.getByTestId('claude-import-problems').innerText();
  expect(problems).toMatch(/\.claude\/agents\/broken\.md:3/);
  expect(problems).toMatch(/\.mcp\.json:3.*"nothing" needs a "command"/);
  const table = page.getByTestId('claude-import-effective');
  expect(await table.innerText()).toMatch(/permissions\.deny\s+Bash\(rm \*\)\s+project/);
  expect(await table.innerText()).toMatch(/permissions\.defaultMode\s+acceptEdits\s+local/);
  expect(await table.innerText()).toMatch(/plan\s*— overridden by local\s+project/);
  expect(await page.getByTestId('claude-import-can-act').innerText()).toContain('allow rules Bash(rm *)');

  // A pasted file joins the import: your own ~/.claude/settings.json is the user scope.
  await page.getByText('Paste a file').click();
  await page.getByTestId('claude-paste-path').fill('~/.claude/settings.json');
  await page.getByTestId('claude-paste-text').fill('{ "permissions": { "allow": ["Bash(git status)"] } }');
  await page.getByTestId('claude-paste-add').click();
  await expect.poll(() => table.innerText()).toMatch(/permissions\.allow\s+Bash\(git status\)\s+user/);
  await result.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/devkit-import.png' });

  await page.getByTestId('claude-import-run').click();
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-trust').click();
  await expect.poll(() => page.getByTestId('trust-badge').getAttribute('data-state')).toBe('trusted');
  await stepOnce(page);
  await stepOnce(page);
  await expect.poll(async () => (await rowTypes(page)).includes('settings.read'), { timeout: 30_000 }).toBe(true);
  const read = page.getByTestId('event-list').locator('[data-type="settings.read"]');
  expect(await read.innerText()).toMatch(/settings\.local\.json.*settings\.json.*local > project > scenario/s);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the workbench tab and the terminal under the editor are axe-clean, a terminal and an import on screen (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openApp(page);
    await selectScenario(page, 'fix-a-bug');
    await stepOnce(page);
    await openTab(page, 'workbench');
    await expect.poll(() => page.getByTestId('terminal').getAttribute('data-loaded'), { timeout: 30_000 }).toBe('true');
    await page.getByTestId('claude-import-folder').setInputFiles(claudeFolder());
    await page.getByTestId('claude-import-result').waitFor();
    expect(await seriousViolations(page, '#tabpanel-workbench')).toEqual([]);
    // The terminal is below the editor in the Build workspace, outside the tab.
    expect(await seriousViolations(page, '[data-testid="editor-column"]')).toEqual([]);
    await page.screenshot({ path: `/tmp/devkit-workbench-${scheme}.png`, fullPage: true });
  });
}
