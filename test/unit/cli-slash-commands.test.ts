/**
 * Slash commands given headless as `-p`, on the bundled runner against the fake Anthropic server
 * on loopback: a built-in prints its information and ends without a model call (`/cost` the cost
 * summary, `/context` the breakdown), an unknown one lists the commands, and a folder's
 * `.claude/commands/*.md` runs only with `--trust` (then the model sees the expanded prompt).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleOnFakeServer } from '../helpers/cli-fake-server.ts';

const KEY = 'sk-ant-test-slash-0123456789';
const cli = bundleOnFakeServer(KEY, 'hp-slash-sessions-');
const runCli = cli.run;

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-slash-'));
  writeFileSync(join(dir, 'a.txt'), 'hello\n');
  mkdirSync(join(dir, '.claude', 'commands'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'commands', 'fix-issue.md'), '---\ndescription: Fix an issue\nargument-hint: [issue]\n---\nFix issue #$1 and say done.\n');
  return dir;
}
const posts = () => cli.server.requests.filter((q) => q.method === 'POST' && q.path === '/v1/messages');

describe('claude -p "/command"', { timeout: 90_000 }, () => {
  it('-p "/cost" prints the cost summary and calls no model', async () => {
    const before = posts().length;
    const r = await runCli(['--dir', folder(), '-p', '/cost']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Total cost: +\$0\n/);
    expect(r.stdout).toContain('Total duration (API):');
    expect(posts().length).toBe(before);
  });

  it('-p "/context" prints the breakdown; the json result carries it; the stream is a slash.command event', async () => {
    const before = posts().length;
    const text = await runCli(['--dir', folder(), '-p', '/context']);
    expect(text.stdout).toMatch(/^Context: ~\d+ of 200000 tokens/);
    const json = JSON.parse((await runCli(['--dir', folder(), '-p', '/context', '--output-format', 'json'])).stdout) as { result: string; is_error: boolean };
    expect(json.result).toMatch(/system prompt: ~\d+ tokens/);
    const trace = (await runCli(['--dir', folder(), '-p', '/mcp', '--output-format', 'trace'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; name?: string; panel?: string });
    expect(trace.filter((e) => e.type === 'slash.command')).toMatchObject([{ name: 'mcp', panel: 'mcp' }]);
    expect(posts().length).toBe(before);
  });

  it('an unknown command lists the commands', async () => {
    const r = await runCli(['--dir', folder(), '-p', '/nope']);
    expect(r.stdout).toMatch(/^Unknown slash command: \/nope\. Commands here: \/compact, \/clear, .*\/fix-issue\./);
  });

  it("a folder's command runs only with --trust, and the model sees the expanded prompt", async () => {
    const dir = folder();
    const before = posts().length;
    const untrusted = await runCli(['--dir', dir, '-p', '/fix-issue 123']);
    expect(untrusted.stdout).toMatch(/fix-issue comes from \.claude\/commands\/fix-issue\.md of a document you have not trusted/);
    expect(posts().length).toBe(before);
    cli.server.setTurns([{ content: [{ type: 'text', text: 'done' }] }]);
    const trusted = await runCli(['--dir', dir, '--trust', '-p', '/fix-issue 123']);
    expect(trusted.stdout.trim()).toBe('done');
    const sent = JSON.stringify((posts().at(-1)!.body as { messages: unknown[] }).messages);
    expect(sent).toContain('Fix issue #123 and say done.');
    expect(sent).not.toContain('/fix-issue');
  });
});
