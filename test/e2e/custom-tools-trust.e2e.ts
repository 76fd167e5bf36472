/**
 * A link's custom tools wait for trust like its hooks: the dialog lists them; declined, the model
 * is not offered them and nothing runs; trusted, the tool runs in the user-code frame, where it
 * has no network.
 */
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import { expect, test } from './browser.ts';
import { openTab, waitForStatus } from './app.ts';
import { fileEntry, linkPath, openAt, toolCalls } from './safety-fixtures.ts';

function toolLink(source: string): Scenario {
  const r = parseScenario({
    id: 'tool-link',
    title: 'A link that carries a custom tool',
    prompt: 'Shout hello.',
    model: {
      kind: 'scripted',
      turns: [{ content: [{ type: 'tool_use', name: 'shout', input: { text: 'hello' } }] }, { content: [{ type: 'text', text: 'done' }] }],
    },
    settings: {
      permissions: { allow: ['shout'] },
      customTools: [
        {
          name: 'shout',
          description: 'Shouts a text into shout.txt.',
          inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          implementation: { kind: 'js', source },
        },
      ],
    },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

const WRITES = "const loud = input.text.toUpperCase(); await files.write('shout.txt', loud); return loud;";

test('declined: the dialog listed the tool, the model is not offered it, nothing ran', async ({ page }) => {
  await openAt(page, linkPath(toolLink(WRITES)));
  const dialog = page.getByTestId('trust-dialog');
  await dialog.waitFor();
  expect(await dialog.getByTestId('trust-tool').allTextContents()).toEqual(['shout (js)']);
  await page.getByTestId('btn-distrust').click();
  await openTab(page, 'tools');
  await page.getByTestId('tools-untrusted').waitFor();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  const result = (await toolCalls(page).first().getByTestId('tool-result').textContent()) ?? '';
  expect(result).toContain('shout');
  expect(result).not.toContain('HELLO');
  expect(await fileEntry(page, '/home/project/shout.txt').count()).toBe(0);
});

test('trusted: the tool runs in the user-code frame, writes through the file API, and cannot fetch', async ({ page }) => {
  const probe = `${WRITES.replace('return loud;', '')} let net = 'fetched'; try { await fetch('/'); } catch (e) { net = 'no network'; } return loud + ' / ' + net + ' / ' + typeof document;`;
  await openAt(page, linkPath(toolLink(probe)));
  await page.getByTestId('trust-dialog').waitFor();
  await page.getByTestId('btn-trust').click();
  await page.getByTestId('btn-run').click();
  await waitForStatus(page, 'done');
  await expect.poll(() => toolCalls(page).first().getByTestId('tool-result').textContent()).toContain('HELLO / no network / undefined');
  await fileEntry(page, '/home/project/shout.txt').waitFor();
});
