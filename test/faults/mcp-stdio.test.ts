/**
 * Issue 22 §1: MCP stdio servers work headless. A folder's `.mcp.json` stdio server (Claude Code's
 * `command` + `args` + `env`) starts as a process in the folder only when the folder is trusted AND
 * the server approved; `--mcp-config` stdio servers are the user's own and start without approval.
 * The process gets the entry's args and env (not the runner's API key) and is gone when the run
 * ends; a command that cannot start is one `mcp.error` line naming the server. The browser's
 * connector (no stdio starter) refuses with a clear message.
 * The runner runs in this process (`main`), against the fake Anthropic server.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TraceEvent } from '../../src/harness/index.ts';
import { createMcpConnector } from '../../src/mcp/connector.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { ofType } from '../helpers/events.ts';
import { runCliInProcess, traceEvents } from '../helpers/cli.ts';
import { startCli } from './cli-fixture.ts';

const KEY = 'sk-ant-test-mcp-stdio-0123456789';
const SERVER = resolve('test/fixtures/stdio-mcp-server.mjs');
let model: FakeAnthropicServer;
const savedEnv = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };

beforeAll(async () => {
  model = await startFakeAnthropicServer({ turns: [], requireApiKey: KEY });
  process.env.ANTHROPIC_API_KEY = KEY;
  process.env.ANTHROPIC_BASE_URL = model.url;
});
afterAll(async () => {
  for (const [k, v] of [['ANTHROPIC_API_KEY', savedEnv.key], ['ANTHROPIC_BASE_URL', savedEnv.url]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await model.close();
});

/** A `.mcp.json` stdio entry for the fixture, marking its start in `mark`. */
const entry = (mark: string, ...args: string[]) => ({ command: process.execPath, args: [SERVER, '--mark', mark, ...args], env: { GREETING: 'hello from .mcp.json' } });

function folder(servers: Record<string, object>, settings?: object): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-mcp-stdio-'));
  writeFileSync(join(dir, 'notes.txt'), 'hello\n');
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: servers }));
  if (settings) {
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(settings));
  }
  return dir;
}

async function run(args: string[]): Promise<{ code: number | null; events: TraceEvent[]; stderr: string }> {
  const r = await runCliInProcess([...args, '--output-format', 'trace']);
  return { code: r.code, events: traceEvents<TraceEvent>(r.stdout), stderr: r.stderr };
}

const whoamiTurns = (server: string) => [
  { content: [{ type: 'tool_use' as const, name: `mcp__${server}__whoami`, input: {} }] },
  { content: [{ type: 'text' as const, text: 'Done.' }] },
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

type Whoami = { args: string[]; cwd: string; greeting: string | null; seesApiKey: boolean; pid: number };

// Each case starts real server processes and a sandbox thread: ~10 s alone, three times that on a
// loaded 2-core machine. The timeout bounds a hang, not the speed.
describe('headless: stdio MCP servers', { timeout: 120_000 }, () => {
  it("a trusted folder's approved .mcp.json stdio server starts in the folder with its args and env, and is gone after the run", async () => {
    model.setTurns(whoamiTurns('local'));
    const mark = join(mkdtempSync(join(tmpdir(), 'hp-mark-')), 'started');
    const dir = folder({ local: entry(mark, 'extra-arg') }, { enabledMcpjsonServers: ['local'] });
    const r = await run(['--dir', dir, '-p', 'Who is the server?', '--trust']);
    expect(r.code).toBe(0);
    expect(ofType(r.events, 'mcp.connect').map((e) => [e.server, e.transport])).toEqual([['local', 'stdio']]);
    const [result] = ofType(r.events, 'tool.result');
    expect(result!.isError).toBe(false);
    const me = JSON.parse(String(result!.content)) as Whoami;
    expect(me.args).toEqual(['--mark', mark, 'extra-arg']);
    expect(realpathSync(me.cwd)).toBe(realpathSync(dir));
    expect(me.greeting).toBe('hello from .mcp.json');
    // The SDK's safe default environment: the runner's API key does not reach a project's process.
    expect(me.seesApiKey).toBe(false);
    await vi.waitFor(() => expect(alive(me.pid)).toBe(false));
  });

  it('an untrusted folder, or a trusted one without approval: the command never runs, each says why', async () => {
    model.setTurns([{ content: [{ type: 'text', text: 'No tools.' }] }]);
    const markA = join(mkdtempSync(join(tmpdir(), 'hp-mark-')), 'started');
    const untrusted = await run(['--dir', folder({ local: entry(markA) }, { enableAllProjectMcpServers: true }), '-p', 'Anything.']);
    expect(ofType(untrusted.events, 'mcp.connect')).toEqual([]);
    expect(ofType(untrusted.events, 'mcp.error').map((e) => [e.server, e.phase, e.message])).toEqual([['local', 'trust', expect.stringMatching(/not trusted/)]]);
    expect(existsSync(markA)).toBe(false);

    model.setTurns([{ content: [{ type: 'text', text: 'No tools.' }] }]);
    const markB = join(mkdtempSync(join(tmpdir(), 'hp-mark-')), 'started');
    const unapproved = await run(['--dir', folder({ local: entry(markB) }), '-p', 'Anything.', '--trust']);
    expect(ofType(unapproved.events, 'mcp.connect')).toEqual([]);
    expect(ofType(unapproved.events, 'mcp.error').map((e) => [e.server, e.phase, e.message])).toEqual([['local', 'trust', expect.stringMatching(/not approved/)]]);
    expect(existsSync(markB)).toBe(false);
  });

  it('--mcp-config stdio servers are the user\'s own: they start without approval', async () => {
    model.setTurns(whoamiTurns('mine'));
    const mark = join(mkdtempSync(join(tmpdir(), 'hp-mark-')), 'started');
    const config = JSON.stringify({ mcpServers: { mine: entry(mark) } });
    const r = await run(['--dir', folder({}), '-p', 'Who is the server?', '--mcp-config', config]);
    expect(r.code).toBe(0);
    expect(ofType(r.events, 'mcp.connect').map((e) => [e.server, e.transport])).toEqual([['mine', 'stdio']]);
    const me = JSON.parse(String(ofType(r.events, 'tool.result')[0]!.content)) as Whoami;
    expect(me.greeting).toBe('hello from .mcp.json');
    await vi.waitFor(() => expect(alive(me.pid)).toBe(false));
  });

  it('a command that does not exist, or a server that dies at start: one mcp.error line naming it, and the run goes on', async () => {
    model.setTurns([{ content: [{ type: 'text', text: 'Still here.' }] }]);
    const mark = join(mkdtempSync(join(tmpdir(), 'hp-mark-')), 'started');
    const config = JSON.stringify({ mcpServers: { ghost: { command: '/nonexistent/hp-no-such-server' }, dying: { command: process.execPath, args: [SERVER, '--fail-at-start'] }, fine: entry(mark) } });
    const r = await run(['--dir', folder({}), '-p', 'Anything.', '--mcp-config', config]);
    expect(r.code).toBe(0);
    const errors = ofType(r.events, 'mcp.error');
    expect(errors.map((e) => e.server).sort()).toEqual(['dying', 'ghost']);
    for (const e of errors) expect(e.message).not.toContain('\n');
    expect(errors.find((e) => e.server === 'ghost')!.message).toMatch(/hp-no-such-server.*no such command/);
    expect(errors.find((e) => e.server === 'dying')!.message).toMatch(/refusing to start \(as asked\)/);
    expect(ofType(r.events, 'mcp.connect').map((e) => e.server)).toEqual(['fine']);
  });
});

describe('Stop (Ctrl-C) with a stdio call pending', { timeout: 120_000 }, () => {
  it('exits 130, the call says interrupted, and the server process is ended', async () => {
    model.setTurns([{ content: [{ type: 'tool_use', name: 'mcp__mine__hang', input: {} }] }, { content: [{ type: 'text', text: 'never asked' }] }]);
    const mark = join(mkdtempSync(join(tmpdir(), 'hp-mark-')), 'started');
    const config = JSON.stringify({ mcpServers: { mine: entry(mark) } });
    const run = startCli(['--dir', folder({}), '-p', 'Hang.', '--mcp-config', config, '--output-format', 'trace'], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url });
    await run.waitForStdout(/"type":"tool\.started"/);
    const pid = Number(readFileSync(mark, 'utf8'));
    expect(alive(pid)).toBe(true);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    const results = traceEvents<TraceEvent>(r.stdout).filter((e) => e.type === 'tool.result');
    expect(results.map((e) => String((e as { content: unknown }).content))).toEqual([expect.stringMatching(/interrupted/)]);
    await vi.waitFor(() => expect(alive(pid)).toBe(false));
  });
});

describe('the browser: no processes', () => {
  it('a connector without a process starter refuses a stdio server with a clear message', async () => {
    const connector = createMcpConnector({});
    await expect(connector.connect({ name: 'local', transport: 'stdio', command: 'node', scope: 'project' }, { timeoutMs: 1_000 })).rejects.toThrow(
      /stdio server "local" runs a local command; a browser cannot start processes/,
    );
  });
});
