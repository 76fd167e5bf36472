/**
 * MCP in Chromium: the loopback MCP server (a real Streamable HTTP server built with the same SDK,
 * `test/fixtures/mcp-server.ts`) is added from the MCP panel, the scripted model calls its tool,
 * and the call and its raw JSON-RPC show in the panel; an in-page server written in the panel runs
 * in the user-code sandbox and lists its tools; a server that is down says so. axe-clean in both themes.
 */
import type { Page } from 'playwright-core';
import { seriousViolations } from './axe.ts';
import { afterAll, beforeAll } from 'vitest';
import { allowConsoleErrors, expect, test } from './browser.ts';
import { openApp, runToEnd, waitForStatus } from './app.ts';
import { startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { freePort } from './servers.ts';

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
  await page.getByTestId('tab-mcp').click();
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

  await page.getByTestId('tab-mcp').click();
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

test('an in-page server written in the panel runs in the sandbox frame; a server that is down says so', async ({ page }) => {
  // The refused connection to the server that is down, and the syntax error of the broken server's worker.
  allowConsoleErrors(page, /ERR_CONNECTION_REFUSED|Failed to fetch|SyntaxError|Unexpected end of input/);
  await openApp(page);
  await page.getByTestId('tab-mcp').click();
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
  await page.getByTestId('tab-mcp').click();
  await expect.poll(() => server(page, 'calc').getAttribute('data-status')).toBe('connected');
  // The stdio server is a config problem, not a server: it is in the errors, not the list.
  expect(await server(page, 'notes').count()).toBe(0);
  expect(await page.getByTestId('mcp-errors').textContent()).toMatch(/stdio server/);
});
