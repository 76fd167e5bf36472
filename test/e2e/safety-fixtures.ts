/**
 * Scenarios and page helpers for the safety e2e tests: share links made in Node with the app's
 * own codec, and waits for the permission / trust dialogs.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { encodeScenarioLink } from '../../src/scenarios/codec.ts';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import { runStatus } from './app.ts';

/**
 * A scenario whose hooks each write a marker file into the sandbox: SessionStart writes
 * `hooked-session.txt`, PreToolUse on bash writes `hooked-pre.txt`. Its one tool call is `ls`
 * (read-only: it runs in any mode, trusted or not), so the only difference trust makes is the hooks.
 */
export function hookedScenario(marker = 'hooked'): Scenario {
  const r = parseScenario({
    id: 'hooked-link',
    title: 'A link that carries hooks',
    description: 'Hooks write marker files; trust decides whether they run.',
    prompt: 'List the files.',
    files: { 'readme.txt': 'hello\n' },
    model: {
      kind: 'scripted',
      turns: [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'ls' } }] },
        { content: [{ type: 'text', text: 'Listed.' }] },
      ],
    },
    settings: {
      maxTurns: 5,
      maxTokens: 2048,
      sandbox: 'just-bash',
      permissions: { allow: ['Bash(echo *)'] },
      hooks: {
        SessionStart: [{ hooks: [{ type: 'command', command: `echo started > /home/project/${marker}-session.txt` }] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo pre > /home/project/${marker}-pre.txt` }] }],
      },
    },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

export function linkPath(scenario: Scenario): string {
  return `/#s=${encodeScenarioLink(scenario)}`;
}

/** Open the app at a path (e.g. a share link) and wait until it is interactive. */
export async function openAt(page: Page, path: string): Promise<void> {
  await page.goto(`${inject('baseUrl')}${path}`);
  await page.getByTestId('scenario-picker').waitFor();
}

export function fileEntry(page: Page, path: string): Locator {
  return page.getByTestId('file-tree').locator(`[data-testid="file-entry"][data-path="${path}"]`);
}

export function toolCalls(page: Page): Locator {
  return page.getByTestId('conversation').getByTestId('tool-call');
}

/** Run (button), answer every permission prompt with `answer` until the run ends. */
export async function runAnswering(page: Page, answer: 'btn-allow-once' | 'btn-allow-session' | 'btn-deny'): Promise<void> {
  await page.getByTestId('btn-run').click();
  const dialog = page.getByTestId('permission-dialog');
  await expect
    .poll(
      async () => {
        if (await dialog.isVisible()) await page.getByTestId(answer).click();
        return runStatus(page);
      },
      { timeout: 45_000 },
    )
    .toSatisfy((s: string) => ['done', 'error', 'aborted'].includes(s));
}
