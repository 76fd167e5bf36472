/**
 * The page's MCP servers, for the MCP panel and the runs: one `McpRegistry` (harness) with the
 * browser connector (`src/mcp/browser.ts`, loaded on first use so the SDK stays out of the first
 * load), the servers the user added (by URL, or in-page source), and the project servers the user
 * approved. A remote URL is allowed through the page's connect-src lock by the user adding it
 * (`allowConnectOrigin`), never by a scenario.
 */
import { mcp, realClock, type Sandbox } from '../../harness/index.ts';
import { SvelteSet } from 'svelte/reactivity';
import { allowConnectOrigin } from '../../security/connect-lock.svelte.ts';

export const IN_PAGE_TEMPLATE = `// An in-page MCP server. It runs in the isolated user-code runtime (a sandboxed worker:
// no network, no app storage). Register tools; the harness speaks MCP to it.
server.name = 'notes';
const notes = [];

server.tool({
  name: 'add_note',
  description: 'Stores a short note.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
}, ({ text }) => {
  notes.push(text);
  return 'stored note ' + notes.length;
});

server.tool({
  name: 'list_notes',
  description: 'Lists the stored notes.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
}, () => notes.join('\\n') || '(no notes)');
`;

export class McpSession {
  servers = $state<mcp.McpServerState[]>([]);
  /** The last problem of an action in the panel (a bad URL, a name clash, a locked origin). */
  problem = $state<string | null>(null);
  readonly approved = new SvelteSet<string>();
  #registry: Promise<mcp.McpRegistry> | null = null;

  registry(): Promise<mcp.McpRegistry> {
    this.#registry ??= import('../../mcp/browser.ts').then(({ createBrowserMcpConnector }) => {
      const r = new mcp.McpRegistry(createBrowserMcpConnector(), () => realClock.now());
      r.subscribe(() => (this.servers = r.list()));
      return r;
    });
    return this.#registry;
  }

  /**
   * What a run passes to prepareRun (`mcp`), or nothing when no server was added and the project
   * has no `.mcp.json` (then the SDK is never loaded).
   */
  async runOptions(sandbox: Sandbox, scenarioFiles: Readonly<Record<string, string>>): Promise<{ mcp?: { registry: mcp.McpRegistry; userApproved: ReadonlySet<string> } }> {
    const hasFile = mcp.MCP_JSON in scenarioFiles || (await sandbox.fs.stat(`${sandbox.workdir}/${mcp.MCP_JSON}`).catch(() => null)) !== null;
    if (!this.#registry && !hasFile) return {};
    return { mcp: { registry: await this.registry(), userApproved: snapshotOf(this.approved) } };
  }

  async addRemote(name: string, url: string, transport: 'http' | 'sse'): Promise<boolean> {
    this.problem = checkName(name) ?? allowConnectOrigin(url.trim());
    if (this.problem) return false;
    return this.#add({ name: name.trim(), transport, url: url.trim(), scope: 'user' });
  }

  async startInPage(name: string, source: string): Promise<boolean> {
    this.problem = checkName(name) ?? (source.trim() ? null : 'The server has no source.');
    if (this.problem) return false;
    return this.#add({ name: name.trim(), transport: 'in-page', source, scope: 'user' });
  }

  async connect(name: string): Promise<void> {
    await (await this.registry()).connect(name);
  }

  async disconnect(name: string): Promise<void> {
    await (await this.registry()).disconnect(name);
  }

  async remove(name: string): Promise<void> {
    await (await this.registry()).remove(name);
  }

  /** The approval prompt's "yes" for a project server: it starts at the next run. */
  approve(name: string): void {
    this.approved.add(name);
  }

  async #add(spec: mcp.McpServerSpec): Promise<boolean> {
    const r = await this.registry();
    const clash = r.set(spec);
    if (clash) {
      this.problem = clash;
      return false;
    }
    await r.connect(spec.name);
    return r.get(spec.name)?.status === 'connected';
  }
}

/** A plain copy for the run, so approving later does not change a run under way. */
const snapshotOf = (set: ReadonlySet<string>): ReadonlySet<string> => new Set(set);

function checkName(name: string): string | null {
  return /^[A-Za-z0-9_.-]{1,40}$/.test(name.trim()) ? null : 'A server name is 1–40 letters, digits, "_", "-" or ".".';
}

/** The page's one MCP session (the panel and the run controller share it). */
export const mcpSession = new McpSession();
