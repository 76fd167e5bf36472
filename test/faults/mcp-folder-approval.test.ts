/**
 * Issue 20 §3: a folder's own MCP approval works headless. `--dir` on a folder with a `.mcp.json`
 * (servers on the loopback MCP fixture) and Claude Code's approval keys in `.claude/settings.json`
 * / `settings.local.json`: with `--trust` the approved servers start and the model calls them;
 * without it nothing starts (deny-first). Seven servers leave no `MaxListenersExceededWarning`.
 * The runner runs in this process (`main`), against the fake Anthropic server.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/harness/index.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { ofType } from '../helpers/events.ts';
import { runCliInProcess, traceEvents } from '../helpers/cli.ts';

const KEY = 'sk-ant-test-mcp-folder-0123456789';
let model: FakeAnthropicServer;
let servers: McpFixture;
const savedEnv = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };

beforeAll(async () => {
  [model, servers] = await Promise.all([startFakeAnthropicServer({ turns: [], requireApiKey: KEY }), startMcpFixture()]);
  process.env.ANTHROPIC_API_KEY = KEY;
  process.env.ANTHROPIC_BASE_URL = model.url;
});
afterAll(async () => {
  for (const [k, v] of [['ANTHROPIC_API_KEY', savedEnv.key], ['ANTHROPIC_BASE_URL', savedEnv.url]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await Promise.all([model.close(), servers.close()]);
});

/** A folder with `.mcp.json` naming `names` (all on the fixture) and the given settings files. */
function folder(names: string[], settings: { project?: object; local?: object }): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-mcp-dir-'));
  writeFileSync(join(dir, 'notes.txt'), 'hello\n');
  writeFileSync(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, { type: 'http', url: servers.url }])) }));
  mkdirSync(join(dir, '.claude'));
  if (settings.project) writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(settings.project));
  if (settings.local) writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify(settings.local));
  return dir;
}

async function run(args: string[]): Promise<{ code: number | null; events: TraceEvent[]; stderr: string }> {
  const r = await runCliInProcess([...args, '--output-format', 'trace']);
  return { code: r.code, events: traceEvents<TraceEvent>(r.stdout), stderr: r.stderr };
}

const addTurns = (server: string) => [
  { content: [{ type: 'tool_use' as const, name: `mcp__${server}__add`, input: { a: 2, b: 3 } }] },
  { content: [{ type: 'text' as const, text: 'It is 5.' }] },
];

describe('--dir: the folder approves its own .mcp.json servers', () => {
  it('enabledMcpjsonServers in .claude/settings.json starts that server (trusted); the model calls it', async () => {
    model.setTurns(addTurns('calc'));
    const dir = folder(['calc', 'other'], { project: { enabledMcpjsonServers: ['calc'] } });
    const r = await run(['--dir', dir, '-p', 'Add 2 and 3 with the calc tool.', '--trust']);
    expect(r.code).toBe(0);
    expect(ofType(r.events, 'mcp.connect').map((e) => e.server)).toEqual(['calc']);
    expect(ofType(r.events, 'mcp.error').map((e) => [e.server, e.phase])).toEqual([['other', 'trust']]);
    expect(ofType(r.events, 'tool.result').map((e) => [e.name, e.content, e.isError])).toEqual([['mcp__calc__add', '5', false]]);
  });

  it('enableAllProjectMcpServers in settings.local.json starts all seven servers, with no MaxListenersExceededWarning', async () => {
    const names = ['s1', 's2', 's3', 's4', 's5', 's6', 's7'];
    model.setTurns(addTurns('s7'));
    const warnings: Error[] = [];
    const onWarning = (w: Error) => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const r = await run(['--dir', folder(names, { local: { enableAllProjectMcpServers: true } }), '-p', 'Add 2 and 3.', '--trust']);
      expect(r.code).toBe(0);
      expect(ofType(r.events, 'mcp.connect').map((e) => e.server).sort()).toEqual(names);
      expect(ofType(r.events, 'tool.result').map((e) => e.content)).toEqual(['5']);
      // Warnings are emitted on the next tick: let them arrive.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });

  it('without --trust the folder cannot approve its own servers: nothing starts, each says why', async () => {
    model.setTurns([{ content: [{ type: 'text', text: 'No tools.' }] }]);
    const dir = folder(['calc'], { project: { enabledMcpjsonServers: ['calc'] }, local: { enableAllProjectMcpServers: true } });
    const before = servers.requests();
    const r = await run(['--dir', dir, '-p', 'Anything.']);
    expect(ofType(r.events, 'mcp.connect')).toEqual([]);
    expect(ofType(r.events, 'mcp.error').map((e) => [e.server, e.phase, e.message])).toEqual([['calc', 'trust', expect.stringMatching(/not trusted/)]]);
    expect(servers.requests()).toBe(before);
  });
});
