/**
 * MCP in Chromium: the loopback MCP server (a real Streamable HTTP server built with the same SDK,
 * `test/fixtures/mcp-server.ts`) is added from the MCP panel, the scripted model calls its tool,
 * and the call and its raw JSON-RPC show in the panel; an in-page server written in the panel runs
 * in the user-code sandbox and lists its tools; a server that is down says so. axe-clean in both themes.
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { afterAll, beforeAll } from 'vitest';
import { allowConsoleErrors, expect, shotPath, test } from './browser.ts';
import { openApp, openSettings, openTab, runToEnd, waitForStatus } from './app.ts';
import { PICTURE_PNG, startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { freePort } from './servers.ts';
import { runAnswering } from './safety-fixtures.ts';
import { goLive } from './live-helpers.ts';

let fixture: McpFixture;
beforeAll(async () => {
  fixture = await startMcpFixture();
});
afterAll(async () => {
  await fixture.close();
});


const scenario = {
  version: 0,
  id: 'mcp-loopback',
  title: 'Add with the loopback MCP server',
  prompt: 'What is 2 + 3? Use the calculator server.',
  model: {
    kind: 'scripted',
    turns: [
      { content: [{ type: 'tool_use', name: 'mcp__lb__add', input: { a: 2, b: 3 } }] },
      { content: [{ type: 'text', text: '2 + 3 = 5.' }] },
    ],
  },
};

const server = (page: Page, name: string) => page.locator(`[data-testid="mcp-server"][data-server="${name}"]`);

async function addByUrl(page: Page, name: string, url: string): Promise<void> {
  await openTab(page, 'mcp');
  await page.getByTestId('mcp-url-name').fill(name);
  await page.getByTestId('mcp-url').fill(url);
  await page.getByTestId('mcp-add-url').click();
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1500, height: 1300 });
});

test('the loopback server added by URL: the model calls its tool, the call and its raw JSON-RPC show in the panel', async ({ page }) => {
  // The stateless fixture answers the client's optional GET (an SSE stream) with 405, which Chromium logs.
  allowConsoleErrors(page, /405/);
  await openApp(page);
  await page.getByTestId('import-file').setInputFiles({ name: 'mcp.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('mcp-loopback');

  await addByUrl(page, 'lb', fixture.url);
  await expect.poll(() => server(page, 'lb').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');
  expect(await server(page, 'lb').getByTestId('mcp-tool').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('mcp__lb__add')]));

  const before = fixture.calls();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(fixture.calls()).toBe(before + 1);
  // The event stream has the MCP events; the conversation shows the result.
  const types = await page.locator('[data-testid="event-row"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
  expect(types).toEqual(expect.arrayContaining(['mcp.connect', 'mcp.tools', 'mcp.call']));
  const card = page.locator('[data-testid="tool-call"][data-tool="mcp__lb__add"]').first();
  await expect.poll(() => card.getByTestId('tool-result').textContent()).toContain('5');

  await openTab(page, 'mcp');
  const call = page.locator('[data-testid="mcp-call"][data-tool="mcp__lb__add"]');
  await call.locator('summary').click();
  const request = JSON.parse((await call.getByTestId('mcp-raw-request').textContent()) ?? '');
  const response = JSON.parse((await call.getByTestId('mcp-raw-response').textContent()) ?? '');
  expect(request).toMatchObject({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
  expect(response).toMatchObject({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: '5' }] } });

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page, '[data-testid="mcp-panel"]'), scheme).toEqual([]);
    await page.getByTestId('mcp-panel').locator('section').first().screenshot({ path: `/tmp/mcp-servers-${scheme}.png` });
    await page.getByTestId('mcp-panel').locator('section').last().screenshot({ path: `/tmp/mcp-calls-${scheme}.png` });
  }
});

test('a server added by URL is saved: after a reload it is listed, not connected, until Connect; then a run calls its tool; Remove forgets it', async ({ page }) => {
  allowConsoleErrors(page, /405/);
  await openApp(page);
  await addByUrl(page, 'lb', fixture.url);
  await expect.poll(() => server(page, 'lb').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');

  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  const seen = fixture.requests();
  await openTab(page, 'mcp');
  const saved = server(page, 'lb');
  await expect.poll(() => saved.getAttribute('data-status')).toBe('saved');
  expect(await saved.getByTestId('mcp-status').textContent()).toBe('saved · not connected');
  expect(await saved.textContent()).toContain(fixture.url);
  expect(await saved.getByTestId('mcp-tool').count()).toBe(0);
  // Nothing went out: a scenario loaded and the panel opened, and the server heard no request, nor was the SDK loaded.
  await page.getByTestId('import-file').setInputFiles({ name: 'mcp.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scenario)) });
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('mcp-loopback');
  await openTab(page, 'mcp');
  expect(fixture.requests()).toBe(seen);
  const sdkLoaded = await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/page-connector-[\w-]+\.js$/.test(e.name)));
  expect(sdkLoaded).toBe(false);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page, '[data-testid="mcp-panel"]'), scheme).toEqual([]);
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await saved.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`mcpsave/mcp-saved-${scheme}-${width}.png`) });
    }
  }
  await page.setViewportSize({ width: 1500, height: 1300 });

  await saved.getByTestId('mcp-connect').click();
  await expect.poll(() => server(page, 'lb').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');
  expect(fixture.requests()).toBeGreaterThan(seen);
  // The same probe that saw no SDK above sees it now (so a renamed chunk cannot make it pass blind).
  expect(await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/page-connector-[\w-]+\.js$/.test(e.name)))).toBe(true);
  expect(await server(page, 'lb').getByTestId('mcp-tool').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('mcp__lb__add')]));
  const before = fixture.calls();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  expect(fixture.calls()).toBe(before + 1);
  const card = page.locator('[data-testid="tool-call"][data-tool="mcp__lb__add"]').first();
  await expect.poll(() => card.getByTestId('tool-result').textContent()).toContain('5');

  // Remove forgets it: gone now, and after a reload.
  await openTab(page, 'mcp');
  await server(page, 'lb').getByTestId('mcp-remove').click();
  await expect.poll(() => server(page, 'lb').count()).toBe(0);
  await page.reload();
  await openTab(page, 'mcp');
  await page.getByTestId('mcp-empty').waitFor();
  expect(await server(page, 'lb').count()).toBe(0);
});

const pictureScenario = {
  ...scenario,
  id: 'mcp-picture',
  title: 'A picture from the loopback MCP server',
  prompt: 'Show me the picture.',
  model: { kind: 'scripted', turns: [{ content: [{ type: 'tool_use', name: 'mcp__lb__picture', input: {} }] }, { content: [{ type: 'text', text: 'A tiny picture.' }] }] },
};

test('in live mode a saved server still connects after a reload: its origin is allowed before the page narrows its connect-src to the model endpoint', async ({ page }) => {
  allowConsoleErrors(page, /405/);
  await openApp(page);
  await openSettings(page);
  await goLive(page);
  await addByUrl(page, 'lb', fixture.url);
  await expect.poll(() => server(page, 'lb').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');

  // The page starts in live mode now: its connect-src is narrowed to the fake model endpoint at once.
  await page.reload();
  await page.getByTestId('scenario-picker').waitFor();
  await expect.poll(() => page.locator('meta[data-connect-lock]').count()).toBe(1);
  const policy = (await page.locator('meta[data-connect-lock]').getAttribute('content')) ?? '';
  expect(policy).toContain(new URL(fixture.url).origin);
  await openTab(page, 'mcp');
  const saved = server(page, 'lb');
  await expect.poll(() => saved.getAttribute('data-status')).toBe('saved');
  const seen = fixture.requests();
  await saved.getByTestId('mcp-connect').click();
  await expect.poll(() => server(page, 'lb').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');
  expect(fixture.requests()).toBeGreaterThan(seen);
  expect(await page.getByTestId('mcp-panel').getByRole('alert').count()).toBe(0);
});

test('an MCP image reaches the model as an image block and shows in the tool card', async ({ page }) => {
  allowConsoleErrors(page, /405/);
  await openApp(page);
  await page.getByTestId('import-file').setInputFiles({ name: 'picture.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(pictureScenario)) });
  await expect.poll(() => page.getByTestId('scenario-picker').inputValue()).toBe('mcp-picture');
  await addByUrl(page, 'lb', fixture.url);
  await expect.poll(() => server(page, 'lb').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');
  await runAnswering(page, 'btn-allow-once');
  const card = page.locator('[data-testid="tool-call"][data-tool="mcp__lb__picture"]').first();
  await expect.poll(() => card.getByTestId('tool-result').textContent()).toContain('sent to the model as an image');
  const img = card.getByTestId('tool-result-image');
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth)).toBe(1);
  expect(await img.getAttribute('src')).toBe(`data:image/png;base64,${PICTURE_PNG}`);
  // A second request followed (its body carries the image block: mcp-loopback.test.ts checks it on the wire).
  const requests = await page.locator('[data-testid="event-row"][data-type="model.request"]').count();
  expect(requests).toBe(2);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page, '[data-testid="conversation"]'), scheme).toEqual([]);
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: shotPath(`persist/mcp-image-${scheme}-${width}.png`) });
    }
  }
});

test('an in-page server written in the panel runs in the sandbox frame; a server that is down says so', async ({ page }) => {
  // The refused connection to the server that is down, and the syntax error of the broken server's worker.
  allowConsoleErrors(page, /ERR_CONNECTION_REFUSED|Failed to fetch|SyntaxError|Unexpected end of input/);
  await openApp(page);
  await openTab(page, 'mcp');
  await page.getByTestId('mcp-empty').waitFor();
  await page.getByTestId('mcp-start').click();
  await expect.poll(() => server(page, 'notes').getAttribute('data-status'), { timeout: 30_000 }).toBe('connected');
  expect(await server(page, 'notes').getByTestId('mcp-tool').allTextContents()).toEqual([
    expect.stringContaining('mcp__notes__add_note'),
    expect.stringContaining('mcp__notes__list_notes'),
  ]);

  // Source that does not compile: the server fails with the syntax error, the page goes on.
  await page.getByTestId('mcp-inpage-name').fill('broken');
  await page.getByTestId('mcp-source').fill('server.tool({ name: ');
  await page.getByTestId('mcp-start').click();
  await expect.poll(() => server(page, 'broken').getAttribute('data-status'), { timeout: 30_000 }).toBe('failed');
  expect(await server(page, 'broken').getByTestId('mcp-server-error').textContent()).toMatch(/the server's code failed: .*SyntaxError/);

  const port = await freePort();
  await addByUrl(page, 'down', `http://127.0.0.1:${port}/mcp`);
  await expect.poll(() => server(page, 'down').getAttribute('data-status'), { timeout: 30_000 }).toBe('failed');
  expect(await server(page, 'down').getByTestId('mcp-server-error').textContent()).toMatch(/could not be reached/);
  await page.getByTestId('mcp-panel').locator('section').first().screenshot({ path: '/tmp/mcp-servers-inpage.png' });
  expect(await seriousViolations(page, '[data-testid="mcp-panel"]')).toEqual([]);
});

test('the lesson: its .mcp.json server runs in the sandbox frame, add is called, clear_memory is hidden by the deny rule', async ({ page }) => {
  await runToEnd(page, 'mcp-in-page-server');
  const types = await page.locator('[data-testid="event-row"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
  expect(types).toEqual(expect.arrayContaining(['permission.prefilter', 'mcp.error', 'mcp.connect', 'mcp.tools', 'mcp.call']));
  const card = page.locator('[data-testid="tool-call"][data-tool="mcp__calc__add"]').first();
  await expect.poll(() => card.getByTestId('tool-result').textContent()).toContain('19 + 23 = 42');
  await openTab(page, 'mcp');
  await expect.poll(() => server(page, 'calc').getAttribute('data-status')).toBe('connected');
  // The stdio server is a config problem, not a server: it is in the errors, not the list.
  expect(await server(page, 'notes').count()).toBe(0);
  expect(await page.getByTestId('mcp-errors').textContent()).toMatch(/stdio server/);
});
