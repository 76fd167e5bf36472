/**
 * The page's MCP servers, for the MCP panel and the runs: one `McpRegistry` (harness) with the
 * browser connector (`src/mcp/page-connector.ts`, loaded on first use so the SDK stays out of the first
 * load), the servers the user added (by URL, or in-page source), and the project servers the user
 * approved. A remote URL is allowed through the page's connect-src lock by the user adding it
 * (`allowConnectOrigin`), never by a scenario.
 *
 * Servers added by URL are saved in this browser (`storage/mcp-servers.ts`). After a reload they
 * are `saved`: listed, not in the registry — so neither the panel nor a run connects them (a run
 * connects every registry server) — until the user clicks Connect. Their origins are allowed again
 * at start-up, before a page in live mode narrows its connect-src: from the records' URLs, read
 * without the records' full check (`storage/local/mcp-server-keys.ts`), which comes with the list —
 * read by the MCP panel, or started by the first run (`runOptions`).
 *
 * The first screen carries none of it: the registry (and the tool schemas it builds) and the saved
 * records' validation (zod) are imported on first use.
 */
import type { PrepareMcpOptions } from '../../run/prepare-mcp.ts';
import type * as mcp from '../../harness/mcp/index.ts';
import { projectApprovalKey } from '../../harness/mcp/light.ts';
import { realClock } from '../../harness/clock.ts';
import { SvelteSet } from 'svelte/reactivity';
import { allowConnectOrigin } from '../../security/connect-lock.svelte.ts';
import type { SavedMcpServer, SavedMcpServerStore } from '../../storage/mcp-servers.ts';
import { pageQuarantine } from '../../storage/quarantine.ts';
import { savedServerUrls } from '../../storage/local/mcp-server-keys.ts';

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
  /** Approved project servers, as `mcp.projectApprovalKey`s: this document, this server's name, URL and header names. */
  readonly approved = new SvelteSet<string>();
  /** The trust key of the document in use (the run controller's `documentTrustKey`), set by the page. */
  document = $state('');
  /** Servers saved in this browser that are not connected yet (not in the registry). */
  saved = $state<SavedMcpServer[]>([]);
  #registry: Promise<mcp.McpRegistry> | null = null;
  #store: Promise<SavedMcpServerStore | null> | null = null;

  /**
   * `openStore`: the saved servers' store, opened on first use (`loadSaved`); none keeps nothing.
   * `savedUrls`: the saved servers' URLs, whose origins are allowed now (`savedServerUrls`).
   */
  constructor(
    private readonly openStore: (() => Promise<SavedMcpServerStore>) | null = null,
    savedUrls: readonly string[] = [],
  ) {
    for (const url of savedUrls) allowConnectOrigin(url);
  }

  /**
   * Reads the servers saved in this browser (once) and allows their origins. The panel calls it as it
   * opens; a run starts it (without waiting: it connects none of them); every action that reads or
   * writes `saved` awaits it first.
   */
  loadSaved(): Promise<SavedMcpServerStore | null> {
    this.#store ??= (this.openStore?.() ?? Promise.resolve(null)).then((store) => {
      this.saved = store?.list() ?? [];
      for (const s of this.saved) allowConnectOrigin(s.url);
      return store;
    });
    return this.#store;
  }

  registry(): Promise<mcp.McpRegistry> {
    this.#registry ??= Promise.all([import('../../mcp/page-connector.ts'), import('../../harness/mcp/registry.ts')]).then(([{ createBrowserMcpConnector }, { McpRegistry }]) => {
      const r = new McpRegistry(createBrowserMcpConnector(), () => realClock.now());
      r.subscribe(() => (this.servers = r.list()));
      return r;
    });
    return this.#registry;
  }

  /**
   * What a run passes to prepareRun (`mcp`): the registry when the page has one (a server added, the
   * panel opened, an earlier run's project servers), else a way to make it, which `prepareMcp` takes
   * only for a project with a `.mcp.json` (so the SDK is never loaded for the others). Asks nothing of
   * the sandbox: prepareRun reads whether there is a `.mcp.json` with its other reads.
   */
  async runOptions(document: string): Promise<{ mcp: Pick<PrepareMcpOptions, 'registry' | 'openRegistry' | 'userApproved' | 'document'> }> {
    // The saved list is read (and a damaged record quarantined) as before, but not waited for: a run
    // connects only registry servers, never a saved one, and the list's first read (its chunk and check)
    // was 35–45 ms of a cold page's first Step.
    void this.loadSaved().catch(() => {});
    const registry = this.#registry ? await this.#registry : null;
    return { mcp: { ...(registry ? { registry } : { openRegistry: () => this.registry() }), userApproved: snapshotOf(this.approved), document } };
  }

  async addRemote(name: string, url: string, transport: 'http' | 'sse'): Promise<boolean> {
    await this.loadSaved();
    this.problem = checkName(name) ?? allowConnectOrigin(url.trim());
    if (this.problem) return false;
    const spec: mcp.McpServerSpec = { name: name.trim(), transport, url: url.trim(), scope: 'user' };
    const clash = (await this.registry()).set(spec);
    if (clash) {
      this.problem = clash;
      return false;
    }
    await this.#save(spec);
    return this.#connect(spec.name);
  }

  async startInPage(name: string, source: string): Promise<boolean> {
    await this.loadSaved();
    this.problem = checkName(name) ?? (source.trim() ? null : 'The server has no source.') ?? this.#savedClash(name.trim());
    if (this.problem) return false;
    return this.#add({ name: name.trim(), transport: 'in-page', source, scope: 'user' });
  }

  /** Connects a server; a saved one joins the registry first (this is where its SDK load starts). */
  async connect(name: string): Promise<void> {
    await this.loadSaved();
    const saved = this.saved.find((s) => s.name === name);
    if (saved) {
      const { specOfSaved } = await import('../../storage/mcp-servers.ts');
      const clash = (await this.registry()).set(specOfSaved(saved));
      if (clash) {
        this.problem = clash;
        return;
      }
      this.saved = this.saved.filter((s) => s !== saved);
    }
    await (await this.registry()).connect(name);
  }

  async disconnect(name: string): Promise<void> {
    await (await this.registry()).disconnect(name);
  }

  /** Forgets a server: disconnected, and no longer saved in this browser. */
  async remove(name: string): Promise<void> {
    (await this.loadSaved())?.forget(name);
    this.saved = this.saved.filter((s) => s.name !== name);
    if (this.#registry) await (await this.registry()).remove(name);
  }

  /** The approval prompt's "yes" for a project server, as it is, in the document in use: it starts at the next run. */
  approve(spec: mcp.McpServerSpec): void {
    this.approved.add(projectApprovalKey(this.document, spec));
  }

  /** Whether this server, as it is, is approved in the document in use. */
  isApproved(spec: mcp.McpServerSpec): boolean {
    return this.approved.has(projectApprovalKey(this.document, spec));
  }

  async #add(spec: mcp.McpServerSpec): Promise<boolean> {
    const clash = (await this.registry()).set(spec);
    if (clash) {
      this.problem = clash;
      return false;
    }
    return this.#connect(spec.name);
  }

  async #connect(name: string): Promise<boolean> {
    const r = await this.registry();
    await r.connect(name);
    return r.get(name)?.status === 'connected';
  }

  #savedClash(name: string): string | null {
    return this.saved.some((s) => s.name === name) ? `A saved server is named "${name}": connect or remove it, or pick another name.` : null;
  }

  /** Keeps a server added by URL for the next page load (replacing a saved one of its name). */
  async #save(spec: mcp.McpServerSpec): Promise<void> {
    this.saved = this.saved.filter((s) => s.name !== spec.name);
    const store = await this.loadSaved();
    if (!store) return;
    const { savedRecordOf } = await import('../../storage/mcp-servers.ts');
    const record = savedRecordOf(spec, realClock.now());
    this.problem = typeof record === 'string' ? record : store.save(record);
  }
}

/** A plain copy for the run, so approving later does not change a run under way. */
const snapshotOf = (set: ReadonlySet<string>): ReadonlySet<string> => new Set(set);

function checkName(name: string): string | null {
  return /^[A-Za-z0-9_.-]{1,40}$/.test(name.trim()) ? null : 'A server name is 1–40 letters, digits, "_", "-" or ".".';
}

/** The page's one MCP session (the panel and the run controller share it). */
export const mcpSession = new McpSession(
  globalThis.localStorage ? () => import('../../storage/local/mcp-server-store.ts').then(({ LocalMcpServerStore }) => new LocalMcpServerStore(globalThis.localStorage, pageQuarantine)) : null,
  savedServerUrls(globalThis.localStorage ?? null),
);
