/**
 * The headless runner as people use it: the bundled `dist-cli/harness.mjs` spawned as a real
 * process on tmp folders, against the fake Anthropic server on loopback. Output formats, `--dir`,
 * `--write-back`, error wording for the context, exit codes.
 */
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
// The bundle is built once per test run by the global setup (test/helpers/build-cli-once.ts).
import { runCliBundle } from '../helpers/cli.ts';

/** Folder runs save their sessions: under a tmp root here, never the user's home. */
const runCli = (args: string[], env: Record<string, string> = {}, cwd = process.cwd()) => runCliBundle(args, { HARNESS_PLAYGROUND_CONFIG_DIR: SESSIONS, ...env }, cwd);

// A hang guard for tests that start processes (some start several): on a loaded 2-core machine one
// node start-up alone has taken 10–19 s, so the suite's 30 s guard fails tests that were working.
vi.setConfig({ testTimeout: 120_000 });

const KEY = 'sk-ant-test-cli-0123456789';
const SESSIONS = mkdtempSync(join(tmpdir(), 'hp-sessions-'));
let server: FakeAnthropicServer;
const env = () => ({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });

const editTurns = (): ScriptedTurn[] => [
  {
    content: [
      { type: 'text', text: 'Let me look and make the change.' },
      { type: 'tool_use', name: 'bash', input: { command: 'ls -a && cat a.txt && echo edited > a.txt && echo new > b.txt && rm gone.txt' } },
    ],
  },
  { content: [{ type: 'text', text: 'Done: a.txt edited, b.txt added, gone.txt removed.' }] },
];

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-cli-'));
  writeFileSync(join(dir, 'a.txt'), 'original\n');
  writeFileSync(join(dir, 'gone.txt'), 'bye\n');
  writeFileSync(join(dir, 'CLAUDE.md'), '# Project notes\nAlways use tabs.\n');
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, 'big.log'), 'x'.repeat(1_200_000));
  mkdirSync(join(dir, '.claude'));
  writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'], defaultMode: 'acceptEdits' } }));
  return dir;
}

beforeAll(async () => {
  server = await startFakeAnthropicServer({ turns: [], requireApiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

describe('headless runner: formats and exit codes', () => {
  it('--help reads well and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const s of ['--dir PATH', '--write-back', '--output-format', 'Exit codes', 'ANTHROPIC_API_KEY', 'fix-a-bug']) expect(r.stdout).toContain(s);
  });

  it("the bundle's sandbox runs real node: node-project-bug's tests fail, then pass", async () => {
    // QuickJS's .wasm sits beside its module in node_modules; a bundle that inlined the module
    // would look for it beside dist-cli/ and every `node` call would die with ENOENT.
    const r = await runCli(['node-project-bug', '--output-format', 'trace']);
    expect(r.code).toBe(0);
    const outputs = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; content?: unknown })
      .filter((e) => e.type === 'tool.result')
      .map((e) => JSON.stringify(e.content));
    expect(outputs.some((o) => /# fail 1/.test(o))).toBe(true);
    expect(outputs.some((o) => /# fail 0/.test(o))).toBe(true);
    expect(r.stdout).not.toMatch(/ENOENT|failed to asynchronously prepare wasm/);
  });

  it('the bundle loads what a lesson loads on demand: js custom tools, skills, an in-page MCP server, git', async () => {
    // Every lesson runs headless in course-lessons.test.ts (in Node, from the sources); these are the
    // parts a bundle could lose (worker scripts, skill files, lazy chunks), run through the bundle itself.
    const ids = ['custom-tool', 'skill-on-demand', 'mcp-in-page-server', 'isolated-workspaces-git'];
    const r = await runCli([...ids, '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual([...ids.map((id) => expect.stringMatching(new RegExp(`^ok   ${id}: completed after \\d+ turns`))), 'scenarios: 4 passed, 0 failed']);
    expect(r.code).toBe(0);
  });

  it('a bad command line exits 2 with a sentence saying what to change', async () => {
    const r = await runCli(['--output-format', 'xml', 'fix-a-bug']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--output-format is one of text, json, stream-json, trace/);
    expect((await runCli(['--dir', '.'])).stderr).toMatch(/--dir needs a task: add -p/);
  });

  it('text (default): only the answer on stdout; one calm line per tool call on stderr, --verbose for more', async () => {
    const r = await runCli(['fix-a-bug']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^Fixed:/);
    expect(r.stderr).toMatch(/^▸ bash bash test\.sh$/m);
    // Allowed calls say nothing more; every stderr line is a tool call or a failed result.
    expect(r.stderr).not.toMatch(/allowed/);
    for (const line of r.stderr.trim().split('\n')) expect(line).toMatch(/^(▸ | {2}✗ )/);
    const v = await runCli(['fix-a-bug', '--verbose']);
    expect(v.stdout).toBe(r.stdout);
    expect(v.stderr).toMatch(/^ {2}allowed \(rules:/m);
    expect(v.stderr).toMatch(/^· model: tool_use, \d+ in/m);
    expect(v.stderr).toMatch(/^→ next_turn/m);
  });

  it('json: one result object with usage, turns, reason and cost', async () => {
    const r = await runCli(['fix-a-bug', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ type: 'result', subtype: 'success', is_error: false, scenario: 'fix-a-bug' });
    expect(o.num_turns).toBeGreaterThan(1);
    expect(o.usage.output_tokens).toBeGreaterThan(0);
    expect(o.cost.weighted_input_tokens).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
  });

  it('trace: every event as a JSON line, then the result', async () => {
    const r = await runCli(['fix-a-bug', '--output-format', 'trace']);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].type).toBe('run.start');
    expect(lines.some((l) => l.type === 'tool.result')).toBe(true);
    expect(lines.at(-2).type).toBe('run.end');
    expect(lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
  });

  it('runs a v1 lesson file by path (migrated), and a broken file exits 2 naming the field', async () => {
    const r = await runCli(['src/scenarios/library/lesson-follow-ups.json', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'success', scenario: 'lesson-follow-ups' });
    const bad = join(mkdtempSync(join(tmpdir(), 'hp-bad-')), 'bad.json');
    writeFileSync(bad, JSON.stringify({ version: 1, id: 'x', title: 'x', prompts: [] }));
    const b = await runCli([bad]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/is not a valid scenario/);
  });
});

describe('headless runner: --dir and --write-back', () => {
  it('runs on a folder: its files become the sandbox (node_modules, big files skipped with a note; .git kept), CLAUDE.md is read, the folder is untouched', async () => {
    const dir = project();
    server.setTurns(editTurns());
    const before = server.requests.length;
    const r = await runCli(['--dir', dir, '-p', 'Edit a.txt', '--trust'], env());
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Done: a.txt edited, b.txt added, gone.txt removed.');
    expect(r.stderr).toMatch(/note: skipped node_modules\//);
    expect(r.stderr).toMatch(/kept the folder's git history: \.git \(1 file, 1 KB\) is in the sandbox/);
    expect(r.stderr).toMatch(/note: skipped big\.log \(1,200,000 bytes/);
    const posts = server.requests.slice(before).filter((q) => q.method === 'POST');
    const first = JSON.stringify(posts[0]!.body);
    expect(first).toContain('Always use tabs.');
    // A folder run is live: the rarely used agent tools wait behind tool_search (issue 23 §1).
    const tools = (posts[0]!.body as { tools: { name: string; description: string }[] }).tools;
    expect(tools.map((t) => t.name)).toContain('tool_search');
    expect(tools.map((t) => t.name)).not.toContain('agent');
    expect(tools.map((t) => t.name)).not.toContain('todo_write');
    for (const n of ['agent', 'todo_write', 'bash_output', 'task_create']) expect(tools.find((t) => t.name === 'tool_search')!.description).toContain(n);
    const msgs = (posts[1]!.body as { messages: { content: { type: string; content?: string }[] }[] }).messages;
    const ls = msgs.at(-1)!.content.find((b) => b.type === 'tool_result')!.content!;
    expect(ls.split('\n')).toEqual(['.', '..', '.claude', '.git', 'CLAUDE.md', 'a.txt', 'gone.txt', 'original']);
    // Without --write-back nothing on disk changed.
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('original\n');
    expect(existsSync(join(dir, 'b.txt'))).toBe(false);
    expect(existsSync(join(dir, 'gone.txt'))).toBe(true);
  });

  it('reads the folder’s .claude/settings.json and settings.local.json from the sandbox, as the page does: a settings.read event, local over project', async () => {
    const dir = project();
    writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { deny: ['Bash(rm *)'] } }));
    server.setTurns(editTurns());
    const r = await runCli(['--dir', dir, '-p', 'Edit a.txt', '--trust', '--output-format', 'trace'], env());
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const read = lines.find((l) => l.type === 'settings.read');
    expect(read.files.map((f: { path: string; scope: string; ok: boolean }) => [f.path, f.scope, f.ok])).toEqual([
      ['.claude/settings.local.json', 'local', true],
      ['.claude/settings.json', 'project', true],
    ]);
    expect(read.scopes).toEqual(['local', 'project', 'scenario']);
    // The local deny beats the project's bare `Bash` allow for the compound command's `rm gone.txt`.
    const decision = lines.find((l) => l.type === 'permission.decision');
    expect(decision.decision).toBe('deny');
    expect(decision.decidedBy.text).toMatch(/Bash\(rm \*\) \(local\)/);
  });

  it('-p alone works on the current folder, like claude -p, and leaves it untouched', async () => {
    const dir = project();
    server.setTurns(editTurns());
    const r = await runCli(['-p', 'Edit a.txt', '--trust'], env(), dir);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('Done: a.txt edited, b.txt added, gone.txt removed.');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('original\n');
  });

  it('a trusted folder’s JS PreToolUse hook runs headless and its deny decides', async () => {
    const dir = project();
    const code = "if (input.tool_input.command.includes('rm ')) return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm here' } };";
    writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'js', code }] }] } }));
    server.setTurns(editTurns());
    const r = await runCli(['--dir', dir, '-p', 'Edit a.txt', '--trust', '--output-format', 'trace'], env());
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    const decision = lines.find((l) => l.type === 'permission.decision');
    expect(decision.decision).toBe('deny');
    expect(JSON.stringify(lines.filter((l) => l.type === 'tool.result'))).toContain('no rm here');
  });

  it('--write-back writes changed and new files and removes deleted ones; skipped files are never touched', async () => {
    const dir = project();
    server.setTurns(editTurns());
    const r = await runCli(['--dir', dir, '-p', 'Edit a.txt', '--trust', '--write-back', '--output-format', 'json'], env());
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o.write_back).toEqual({ written: ['a.txt', 'b.txt'], deleted: ['gone.txt'] });
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('edited\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(join(dir, 'gone.txt'))).toBe(false);
    expect(readFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(readFileSync(join(dir, 'big.log'), 'utf8')).toHaveLength(1_200_000);
  });

  it('untrusted, the folder’s allow rules do not apply: the command is denied and the model is told', async () => {
    const dir = project();
    server.setTurns(editTurns());
    const r = await runCli(['--dir', dir, '-p', 'Edit a.txt', '--write-back'], env());
    expect(r.stderr).toMatch(/^ {2}denied: /m);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('original\n');
  });

  it('a folder settings file that does not parse exits 2 naming the line', async () => {
    const dir = project();
    writeFileSync(join(dir, '.claude', 'settings.local.json'), '{\n  "permissions": {,\n}');
    const r = await runCli(['--dir', dir, '-p', 'x'], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/settings\.local\.json is not valid settings:\n {2}line 2/);
  });

  it('errors are worded for the command line: no key, or a rejected key, names ANTHROPIC_API_KEY', async () => {
    const dir = project();
    const none = await runCli(['--dir', dir, '-p', 'x']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/needs ANTHROPIC_API_KEY/);
    server.setTurns(editTurns());
    const wrong = await runCli(['--dir', dir, '-p', 'x', '--output-format', 'json'], { ANTHROPIC_API_KEY: 'sk-ant-wrong-key-0000', ANTHROPIC_BASE_URL: server.url });
    expect(wrong.code).toBe(1);
    const o = JSON.parse(wrong.stdout);
    expect(o).toMatchObject({ subtype: 'error_during_execution', reason: 'model_error', is_error: true, error: { kind: 'authentication' } });
    expect(o.error.message).toMatch(/Check ANTHROPIC_API_KEY in the environment/);
    expect(o.error.message).not.toMatch(/Settings/);
    expect(wrong.stdout).not.toContain('sk-ant-wrong-key-0000');
  });
});
