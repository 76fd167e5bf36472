/**
 * Claude Code's print-mode flags on the bundled runner, against the fake Anthropic server on
 * loopback: sessions saved per folder and resumed (`--resume`, `--continue`), CLI-scope rules
 * (`--allowedTools`, `--disallowedTools`), the system prompt flags, messages on stdin
 * (`--input-format stream-json`), the dollar ceiling and the fallback model.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../fixtures/fake-anthropic-server.ts';
import { bundleOnFakeServer } from '../helpers/cli-fake-server.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';

const KEY = 'sk-ant-test-flags-0123456789';
const cli = bundleOnFakeServer(KEY, 'hp-flag-sessions-');
const SESSIONS = cli.sessions;
const runCli = cli.run;

const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'hp-flags-'));
  writeFileSync(join(dir, 'a.txt'), 'hello\n');
  return dir;
};
const say = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });
type Body = { model: string; system?: unknown; tools?: { name: string }[]; messages: { role: string; content: unknown }[] };
const posts = (from: number): Body[] => cli.server.requests.slice(from).filter((q) => q.method === 'POST').map((q) => q.body as Body);

describe('claude -p flags', { timeout: 90_000 }, () => {
  it('a folder run is saved as <root>/projects/<escaped cwd>/<session_id>.jsonl; --resume and --continue go on from it', async () => {
    const dir = folder();
    cli.server.setTurns([say('First answer.'), say('Second answer.'), say('Third answer.')]);
    const first = JSON.parse((await runCli(['--dir', dir, '-p', 'remember the word kiwi', '--output-format', 'json'])).stdout) as { session_id: string };
    const file = join(SESSIONS, 'projects', resolve(dir).replace(/[^a-zA-Z0-9]/g, '-'), `${first.session_id}.jsonl`);
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    const before = cli.server.requests.length;
    const second = await runCli(['--dir', dir, '--resume', first.session_id, '-p', 'which word?', '--output-format', 'json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ session_id: first.session_id, result: 'Second answer.' });
    const sent = JSON.stringify(posts(before)[0]!.messages);
    expect(sent).toContain('remember the word kiwi');
    expect(sent).toContain('First answer.');
    const mark = cli.server.requests.length;
    const third = await runCli(['--dir', dir, '-c', '-p', 'and now?', '--output-format', 'json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ session_id: first.session_id });
    expect(JSON.stringify(posts(mark)[0]!.messages)).toContain('Second answer.');
    const missing = await runCli(['--dir', dir, '--resume', 'no-such-session', '-p', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no session no-such-session for /);
  });

  it('--allowedTools lets an untrusted folder run a command; --disallowedTools Bash hides the tool', async () => {
    const dir = folder();
    const call: ScriptedTurn = { content: [{ type: 'tool_use', name: 'bash', input: { command: 'touch made.txt' } }] };
    cli.server.setTurns([call, say('done')]);
    const denied = JSON.parse((await runCli(['--dir', dir, '-p', 'go', '--output-format', 'json'])).stdout) as { permission_denials: { tool_name: string; tool_input: unknown }[] };
    expect(denied.permission_denials).toEqual([expect.objectContaining({ tool_name: 'bash', tool_input: { command: 'touch made.txt' } })]);
    cli.server.setTurns([call, say('done')]);
    const allowed = JSON.parse((await runCli(['--dir', dir, '-p', 'go', '--output-format', 'json', '--allowedTools', 'Bash(touch *) Read'])).stdout) as { permission_denials: unknown[] };
    expect(allowed.permission_denials).toEqual([]);
    cli.server.setTurns([say('no tools here')]);
    const before = cli.server.requests.length;
    await runCli(['--dir', dir, '-p', 'go', '--disallowedTools', 'Bash']);
    expect(posts(before)[0]!.tools!.map((t) => t.name)).not.toContain('bash');
    const bad = await runCli(['--dir', dir, '-p', 'go', '--allowedTools', 'Bash(']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--allowedTools: "Bash\(" opens "\("/);
  });

  it('--system-prompt replaces the system prompt, --append-system-prompt adds to it', async () => {
    const dir = folder();
    cli.server.setTurns([say('a'), say('b')]);
    const before = cli.server.requests.length;
    await runCli(['--dir', dir, '-p', 'x', '--system-prompt', 'You are a pirate.']);
    await runCli(['--dir', dir, '-p', 'x', '--append-system-prompt', 'Answer in French.']);
    const [one, two] = posts(before).map((b) => JSON.stringify(b.system));
    expect(one).toContain('You are a pirate.');
    expect(one).not.toContain('Answer in French.');
    expect(two).toContain('Answer in French.');
    expect(two!.indexOf('Answer in French.')).toBeGreaterThan(100);
  });

  it('--input-format stream-json: each user message on stdin is answered in turn, in one session', async () => {
    const dir = folder();
    cli.server.setTurns([say('One.'), say('Two.')]);
    const before = cli.server.requests.length;
    const stdin = ['first question', 'second question'].map((t) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } })).join('\n') + '\n';
    const r = await runCli(['--dir', dir, '--input-format', 'stream-json', '--output-format', 'stream-json'], stdin);
    expect(r.code).toBe(0);
    const results = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; result?: string; session_id: string }).filter((l) => l.type === 'result');
    expect(results.map((x) => x.result)).toEqual(['One.', 'Two.']);
    expect(results[0]!.session_id).toBe(results[1]!.session_id);
    expect(JSON.stringify(posts(before)[1]!.messages)).toContain('first question');
    const bad = await runCli(['--dir', dir, '--input-format', 'stream-json', '--output-format', 'stream-json'], 'not json\n');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/stdin line 1 is not JSON/);
    expect((await runCli(['--dir', dir, '--input-format', 'stream-json'])).stderr).toMatch(/needs --output-format stream-json/);
  });

  it('--max-budget-usd stops before the call that would cross it: error_max_budget_usd, exit 1', async () => {
    const dir = folder();
    const call: ScriptedTurn = { content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] };
    cli.server.setTurns([call, call, call, say('done')]);
    const before = cli.server.requests.length;
    // Each request is ~3.5k input tokens (≈ $0.01 at Sonnet's uncached rate): the third would cross $0.025.
    const r = await runCli(['--dir', dir, '-p', 'read it again and again', '--output-format', 'json', '--max-budget-usd', '0.025']);
    expect(r.code).toBe(1);
    const o = JSON.parse(r.stdout) as { subtype: string; reason: string; total_cost_usd: number };
    expect(o).toMatchObject({ subtype: 'error_max_budget_usd', reason: 'max_budget', is_error: true });
    expect(o.total_cost_usd).toBeLessThanOrEqual(0.025);
    expect(posts(before).length).toBeLessThan(4);
    expect(posts(before).length).toBeGreaterThan(0);
  });

  it('--mcp-config adds the user\'s own servers (no approval needed); the init line lists them, their tools work', async () => {
    const dir = folder();
    const source = "server.name = 'calc'; server.version = '1.0.0'; server.tool({ name: 'add', description: 'a + b', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] } }, ({ a, b }) => `${a} + ${b} = ${a + b}`);";
    const config = JSON.stringify({ mcpServers: { calc: { type: 'in-page', source } } });
    cli.server.setTurns([{ content: [{ type: 'tool_use', name: 'mcp__calc__add', input: { a: 2, b: 3 } }] }, say('five')]);
    const r = await runCli(['--dir', dir, '-p', 'add', '--mcp-config', config, '--allowedTools', 'mcp__calc', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; mcp_servers?: unknown; tools?: string[]; message?: { content: unknown } });
    expect(lines[0]).toMatchObject({ type: 'system', mcp_servers: [{ name: 'calc', status: 'connected' }] });
    expect(lines[0]!.tools).toContain('mcp__calc__add');
    expect(JSON.stringify(lines.filter((l) => l.type === 'user'))).toContain('2 + 3 = 5');
    const missing = await runCli(['--dir', dir, '-p', 'x', '--mcp-config', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read the --mcp-config file/);
  });

  it('--fallback-model: a model the API does not know switches to the fallback, visibly', async () => {
    const dir = folder();
    const turns = (req: RecordedRequest): ScriptedTurn =>
      (req.body as Body).model === 'claude-gone-1' ? { content: [], fault: { kind: 'http', status: 404, errorType: 'not_found_error', message: 'model: claude-gone-1' } } : say('Answered by the fallback.');
    cli.server.setTurns(turns);
    const before = cli.server.requests.length;
    const r = await runCli(['--dir', dir, '-p', 'hi', '--model', 'claude-gone-1', '--fallback-model', 'claude-haiku-5-5', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(posts(before).map((b) => b.model)).toEqual(['claude-gone-1', 'claude-haiku-5-5']);
    expect(r.stderr).toMatch(/claude-gone-1 was not found; switched to the fallback model claude-haiku-5-5/);
    const o = JSON.parse(r.stdout) as { result: string; modelUsage: Record<string, unknown> };
    expect(o.result).toBe('Answered by the fallback.');
    expect(Object.keys(o.modelUsage)).toEqual(['claude-haiku-5-5']);
    const without = await runCli(['--dir', dir, '-p', 'hi', '--model', 'claude-gone-1', '--output-format', 'json']);
    expect(without.code).toBe(1);
  });
});
