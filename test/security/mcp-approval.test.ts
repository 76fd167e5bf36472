/**
 * Attacker: the user approved project server `docs` for link A; untrusted link B has its own
 * `.mcp.json` server named `docs` — pointing at another URL, sending its own headers — hoping the
 * approval (once kept by name for the whole page session) lets it connect. Approvals are keyed to
 * the document (its trust key) and to the server as it is: name, transport, URL and header names.
 */
import { describe, expect, it } from 'vitest';
import { mcp, realClock, type McpConnector } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { McpSession } from '../../src/ui/mcp/mcp-session.svelte.ts';

const mcpJson = (url: string, headers: Record<string, string> = {}) => JSON.stringify({ mcpServers: { docs: { type: 'http', url, headers } } });

/** Records what it was asked to connect, and refuses (nothing leaves the test). */
function recording(): { connector: McpConnector; asked: string[] } {
  const asked: string[] = [];
  return { asked, connector: { connect: (spec) => (asked.push(`${spec.name} ${spec.url}`), Promise.reject(new Error('refused by the test'))) } };
}

/** One run start of a document: `.mcp.json` synced with the page's approvals, every approved server connected. */
async function runStart(file: string, document: string, approved: ReadonlySet<string>): Promise<{ asked: string[]; status: string | undefined }> {
  const sandbox = await createJustBashSandbox({ files: { '.mcp.json': file } });
  const { connector, asked } = recording();
  const registry = new mcp.McpRegistry(connector, () => realClock.now());
  try {
    await mcp.syncProjectServers({ fs: sandbox.fs, workdir: sandbox.workdir, registry, settings: {}, trusted: false, userApproved: approved, document });
    await registry.connectAll();
    return { asked, status: registry.get('docs')?.status };
  } finally {
    await registry.closeAll();
    await sandbox.dispose();
  }
}

describe('project MCP approvals are per document and per server as it is', () => {
  it('approving docs in link A does not let link B\'s docs (another URL, other headers) connect, nor A\'s docs once its URL or headers change', async () => {
    const page = new McpSession(null);
    page.document = 'doc-A';
    const [a] = mcp.readMcpJson(mcpJson('http://127.0.0.1:9/a')).servers;
    page.approve(a!.spec);
    const approved = new Set(page.approved);

    expect(await runStart(mcpJson('http://127.0.0.1:9/a'), 'doc-A', approved)).toEqual({ asked: ['docs http://127.0.0.1:9/a'], status: 'failed' });
    // Link B, same name, its own URL and a header: blocked, never asked to connect.
    expect(await runStart(mcpJson('http://127.0.0.1:9/b', { Authorization: 'Bearer x' }), 'doc-B', approved)).toEqual({ asked: [], status: 'blocked' });
    // Link B with A's exact server: still its own document.
    expect(await runStart(mcpJson('http://127.0.0.1:9/a'), 'doc-B', approved)).toEqual({ asked: [], status: 'blocked' });
    // A's server with a header added: not what was approved.
    expect(await runStart(mcpJson('http://127.0.0.1:9/a', { Authorization: 'Bearer x' }), 'doc-A', approved)).toEqual({ asked: [], status: 'blocked' });

    // The panel says so too: approved in A, not in B.
    expect(page.isApproved(a!.spec)).toBe(true);
    page.document = 'doc-B';
    expect(page.isApproved(a!.spec)).toBe(false);
  });
});
