/**
 * The page's MCP registry is made only for a run that can use it (`prepareMcp`'s `openRegistry`):
 * a project without `.mcp.json` never opens it (the MCP SDK stays unloaded), one with it does, and a
 * registry the page already has is used as it is. `prepareRun` asks whether the file exists with its
 * other reads of the sandbox (once, for a project without one).
 */
import { describe, expect, it } from 'vitest';
import { mcp } from '../../src/harness/index.ts';
import type { SandboxFs } from '../../src/harness/ports.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';

const MCP_JSON = JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } });

async function prepared(files: Record<string, string>) {
  const scenario = findBuiltinScenario('memory-claude-md')!;
  const sandbox = await createJustBashSandbox();
  const stats: string[] = [];
  // The same sandbox, counting its stats (its objects are class instances: their methods stay bound).
  const bound = <T extends object>(target: T, own: Partial<T>): T =>
    new Proxy(target, { get: (t, k) => (k in own ? own[k as keyof T] : typeof Reflect.get(t, k) === 'function' ? (Reflect.get(t, k) as (...a: unknown[]) => unknown).bind(t) : Reflect.get(t, k)) });
  const fs: SandboxFs = bound(sandbox.fs, { stat: (p: string) => (stats.push(p), sandbox.fs.stat(p)) });
  let opened = 0;
  const registry = new mcp.McpRegistry(null, () => 0);
  const run = await prepareRun({
    scenario: { ...scenario, files: { ...scenario.files, ...files } },
    sandbox: bound(sandbox, { fs }),
    mcp: { openRegistry: async () => (opened++, registry), document: 'doc' },
  });
  return { run, opened, registry, mcpStats: stats.filter((p) => p.endsWith('/.mcp.json')).length };
}

describe('the MCP registry on demand', () => {
  it('a project without .mcp.json: the registry is never opened, and the file is asked about once', async () => {
    const { run, opened, mcpStats } = await prepared({});
    expect(opened).toBe(0);
    expect(mcpStats).toBe(1);
    expect(run.input.preludeEvents ?? []).toEqual([]);
  });

  it('a project with .mcp.json: the registry is opened, its server synced (blocked: not approved), and left open for the page', async () => {
    const { run, opened, registry } = await prepared({ '.mcp.json': MCP_JSON });
    expect(opened).toBe(1);
    expect(registry.get('docs')?.status).toBe('blocked');
    await run.dispose();
    // The page's registry outlives the run (only a run-local one is closed by dispose).
    expect(registry.get('docs')).toBeDefined();
  });
});
