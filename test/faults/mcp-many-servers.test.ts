/**
 * Issue 20 §3: seven or more MCP servers on one run's signal leave no `MaxListenersExceededWarning`.
 * The SDK adds an abort listener per request and never removes it; the run's signal must hold one
 * listener while servers connect (not one per server) and none once requests are over.
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mcp } from '../../src/harness/index.ts';
import { createNodeMcpConnector } from '../../src/mcp/node.ts';
import { startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { toolsFixture } from '../unit/tools-fixture.ts';

let fixture: McpFixture;
beforeAll(async () => {
  fixture = await startMcpFixture();
});
afterAll(async () => {
  await fixture.close();
});

it('twelve servers connect on one signal: no warning, and no listener left on it; calls leave none either', async () => {
  const registry = new mcp.McpRegistry(createNodeMcpConnector(), () => Date.now(), 10_000);
  const names = Array.from({ length: 12 }, (_, i) => `s${i + 1}`);
  for (const name of names) expect(registry.set({ name, transport: 'http', url: fixture.url, scope: 'user' })).toBeNull();
  const run = new AbortController();
  const warnings: Error[] = [];
  const onWarning = (w: Error) => void warnings.push(w);
  process.on('warning', onWarning);
  try {
    await registry.connectAll(run.signal);
    expect(registry.list().map((s) => s.status)).toEqual(names.map(() => 'connected'));
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    // Calls on the same signal, one after another, as a long run makes them.
    const add = registry.tools().find((t) => t.name === 'mcp__s1__add')!;
    const tools = await toolsFixture();
    for (let i = 0; i < 12; i++) {
      const out = await add.call({ a: i, b: 1 }, { ...tools.ctx, signal: run.signal });
      expect(out.content).toBe(String(i + 1));
    }
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
    await registry.closeAll();
  }
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
});

it('a stop still reaches every server that is connecting', async () => {
  const registry = new mcp.McpRegistry(createNodeMcpConnector(), () => Date.now(), 10_000);
  for (const name of ['a', 'b', 'c']) registry.set({ name, transport: 'http', url: fixture.url, scope: 'user' });
  const run = new AbortController();
  run.abort();
  await registry.connectAll(run.signal);
  expect(registry.list().map((s) => [s.status, s.error])).toEqual([
    ['failed', 'stopped (the run was aborted)'],
    ['failed', 'stopped (the run was aborted)'],
    ['failed', 'stopped (the run was aborted)'],
  ]);
});
