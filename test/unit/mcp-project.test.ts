/**
 * `.mcp.json` is read like Claude Code's, and project servers need approval: the user's answer,
 * `enableAllProjectMcpServers`, `enabledMcpjsonServers` (from trusted settings only), and
 * `disabledMcpjsonServers` always wins.
 */
import { describe, expect, it } from 'vitest';
import { mcp, WORKDIR, type McpConnector } from '../../src/harness/index.ts';
import { createNodeMcpConnector } from '../../src/mcp/node.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

describe('readMcpJson', () => {
  it('reads http, sse, in-page and stdio servers; lists bad entries as problems, keeps the rest', () => {
    const r = mcp.readMcpJson(
      JSON.stringify({
        mcpServers: {
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'x-k': 'v' } },
          old: { type: 'sse', url: 'https://old.example.com/sse' },
          calc: { type: 'in-page', file: 'mcp/calc.js' },
          inline: { type: 'in-page', source: 'server.name = "x";' },
          local: { command: 'npx', args: ['some-server'], env: { TOKEN_FILE: 't' } },
          noCommand: { type: 'stdio', command: '' },
          broken: { type: 'http', url: 'not a url' },
          empty: { type: 'in-page' },
        },
      }),
    );
    expect(r.servers.map((s) => [s.spec.name, s.spec.transport, s.file ?? null])).toEqual([
      ['remote', 'http', null],
      ['old', 'sse', null],
      ['calc', 'in-page', 'mcp/calc.js'],
      ['inline', 'in-page', null],
      ['local', 'stdio', null],
    ]);
    expect(r.servers[0]!.spec.headers).toEqual({ 'x-k': 'v' });
    expect(r.servers[4]!.spec).toMatchObject({ command: 'npx', args: ['some-server'], env: { TOKEN_FILE: 't' } });
    expect(r.problems.map((p) => p.server)).toEqual(['noCommand', 'broken', 'empty']);
    expect(r.problems[0]!.message).toMatch(/stdio server "noCommand": command/);
  });
  it('bad JSON and a missing mcpServers are one problem each, not a throw', () => {
    expect(mcp.readMcpJson('{').problems[0]!.message).toMatch(/not valid JSON/);
    expect(mcp.readMcpJson('{}').problems[0]!.message).toMatch(/mcpServers/);
  });
});

describe('projectServerApproval', () => {
  const approve = mcp.projectServerApproval;
  it('is not approved by default, and says how to approve', () => {
    const a = approve('calc', {}, { trusted: true });
    expect(a.approved).toBe(false);
    expect(!a.approved && a.reason).toMatch(/not approved/);
  });
  it('enableAllProjectMcpServers and enabledMcpjsonServers approve only from trusted settings', () => {
    expect(approve('calc', { enableAllProjectMcpServers: true }, { trusted: true }).approved).toBe(true);
    expect(approve('calc', { enabledMcpjsonServers: ['calc'] }, { trusted: true }).approved).toBe(true);
    expect(approve('other', { enabledMcpjsonServers: ['calc'] }, { trusted: true }).approved).toBe(false);
    const untrusted = approve('calc', { enableAllProjectMcpServers: true }, { trusted: false });
    expect(untrusted.approved).toBe(false);
    expect(!untrusted.approved && untrusted.reason).toMatch(/not trusted/);
  });
  it('the user approving at the prompt counts; disabledMcpjsonServers beats everything', () => {
    expect(approve('calc', {}, { trusted: false, userApproved: new Set(['calc']) }).approved).toBe(true);
    expect(approve('calc', { enableAllProjectMcpServers: true, disabledMcpjsonServers: ['calc'] }, { trusted: true, userApproved: new Set(['calc']) }).approved).toBe(false);
  });
  it('reads the keys from loose settings and merges scopes', () => {
    const m = mcp.mergeApprovalSettings([
      mcp.approvalSettingsOf({ enabledMcpjsonServers: ['a', 3], enableAllProjectMcpServers: 'yes' }),
      mcp.approvalSettingsOf({ disabledMcpjsonServers: ['b'] }),
    ]);
    expect(m).toEqual({ enabledMcpjsonServers: ['a'], disabledMcpjsonServers: ['b'] });
  });
});

/** The real Node connector, watched: which servers it was asked to start (and with what source). */
function observedConnector(): { connector: McpConnector; connected: string[] } {
  const real = createNodeMcpConnector();
  const connected: string[] = [];
  return {
    connected,
    connector: {
      connect(spec, opts) {
        connected.push(`${spec.name}:${spec.source ?? spec.url}`);
        return real.connect(spec, opts);
      },
    },
  };
}

const HELLO = 'server.name = "calc"; server.tool({ name: "hello", inputSchema: { type: "object" } }, () => "hi");';

describe('syncProjectServers', () => {
  it('starts approved servers (with their file as source), blocks the others with a trust error, reports config problems', async () => {
    const sandbox = await createJustBashSandbox({
      files: {
        '.mcp.json': JSON.stringify({ mcpServers: { calc: { type: 'in-page', file: 'mcp/calc.js' }, other: { type: 'in-page', source: 'x' }, gone: { type: 'in-page', file: 'missing.js' }, local: { command: 'x' } } }),
        'mcp/calc.js': HELLO,
      },
    });
    const { connector, connected } = observedConnector();
    const registry = new mcp.McpRegistry(connector, () => 0);
    const events = await mcp.syncProjectServers({ fs: sandbox.fs, workdir: WORKDIR, registry, settings: { enabledMcpjsonServers: ['calc', 'gone'] }, trusted: true });
    await registry.connectAll();
    expect(connected).toEqual([`calc:${HELLO}`]);
    expect(registry.tools().map((t) => t.name)).toEqual(['mcp__calc__hello']);
    expect(registry.get('other')!.status).toBe('blocked');
    expect(registry.get('gone')!.error).toMatch(/source file missing.js could not be read/);
    const all = [...events, ...registry.drainEvents()];
    expect(all.filter((e) => e.type === 'mcp.error').map((e) => (e as { server: string; phase: string }).server + ':' + (e as { phase: string }).phase)).toEqual([
      'local:config',
      'other:trust',
      'gone:config',
    ]);
    // A connector that cannot start processes (the browser's): the stdio server is a config problem that says so.
    expect(all.find((e) => e.type === 'mcp.error' && (e as { server: string }).server === 'local')).toMatchObject({ message: expect.stringMatching(/stdio server.*cannot start processes/) });
    expect(all.map((e) => e.type)).toContain('mcp.connect');
    expect(all.map((e) => e.type)).toContain('mcp.tools');
    await registry.closeAll();
  });

  it('an untrusted document never starts its servers, even when it enables them all', async () => {
    const sandbox = await createJustBashSandbox({ files: { '.mcp.json': JSON.stringify({ mcpServers: { calc: { type: 'in-page', source: 'x' } } }) } });
    const { connector, connected } = observedConnector();
    const registry = new mcp.McpRegistry(connector, () => 0);
    await mcp.syncProjectServers({ fs: sandbox.fs, workdir: WORKDIR, registry, settings: { enableAllProjectMcpServers: true }, trusted: false });
    await registry.connectAll();
    expect(connected).toEqual([]);
    expect(registry.tools()).toEqual([]);
  });

  it('a server removed from .mcp.json leaves the registry', async () => {
    const sandbox = await createJustBashSandbox({ files: { '.mcp.json': JSON.stringify({ mcpServers: { a: { type: 'in-page', source: 'x' } } }) } });
    const { connector } = observedConnector();
    const registry = new mcp.McpRegistry(connector, () => 0);
    const input = { fs: sandbox.fs, workdir: WORKDIR, registry, settings: { enableAllProjectMcpServers: true }, trusted: true };
    await mcp.syncProjectServers(input);
    expect(registry.list().map((s) => s.spec.name)).toEqual(['a']);
    await sandbox.fs.writeFile(`${WORKDIR}/.mcp.json`, JSON.stringify({ mcpServers: {} }));
    await mcp.syncProjectServers(input);
    expect(registry.list()).toEqual([]);
  });
});
