/**
 * The MCP servers of a session: their configs, connections, state and tools. Connecting goes
 * through the `McpConnector` port; what happened (connected, tools listed, failed) is kept as
 * trace events until the next run starts, which puts them in its stream (`drainEvents`), so the
 * log shows why a tool is or is not there. A server that is down or answers garbage is `failed`
 * with a message; its tools are simply absent and the run goes on.
 *
 * The UI keeps one registry for the page (the MCP panel connects servers before a run); the
 * headless runner makes one per run.
 */
import type { McpConnection, McpConnector } from '../ports.ts';
import type { TraceEventBody } from '../trace.ts';
import type { AnyTool } from '../tools/tool.ts';
import { mcpTool } from './mcp-tool.ts';
import { sanitizeMcpName } from './names.ts';
import { readToolList, type NamedMcpTool } from './tool-list.ts';
import { DEFAULT_MCP_CONNECT_TIMEOUT_MS, type McpServerScope, type McpServerSpec } from './types.ts';

export type McpServerStatus = 'idle' | 'connecting' | 'connected' | 'failed' | 'blocked';

export type McpServerState = {
  spec: McpServerSpec;
  status: McpServerStatus;
  /** Why it failed or is blocked. */
  error?: string;
  tools: NamedMcpTool[];
  skipped: { tool: string; reason: string }[];
  serverName?: string;
  serverVersion?: string;
};

type Entry = { state: McpServerState; connection?: McpConnection; attempt: number };

const sameSpec = (a: McpServerSpec, b: McpServerSpec) => JSON.stringify(a) === JSON.stringify(b);

export class McpRegistry {
  readonly #entries = new Map<string, Entry>();
  #events: TraceEventBody[] = [];
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly connector: McpConnector | null,
    private readonly now: () => number,
    private readonly connectTimeoutMs = DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  ) {}

  /** Whether stdio servers can start here (the connector is a Node host's). */
  startsProcesses(): boolean {
    return this.connector?.startsProcesses === true;
  }

  /** Calls `fn` after every state change (for the panel); returns the unsubscribe. */
  subscribe(fn: () => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }

  list(): McpServerState[] {
    return [...this.#entries.values()].map((e) => e.state);
  }

  get(name: string): McpServerState | undefined {
    return this.#entries.get(name)?.state;
  }

  /**
   * Adds a server or replaces one of the same name (a changed config reconnects). Returns a
   * problem instead when another server's sanitised name would give the same tool prefix.
   */
  set(spec: McpServerSpec): string | null {
    const clash = [...this.#entries.keys()].find((n) => n !== spec.name && sanitizeMcpName(n) === sanitizeMcpName(spec.name));
    if (clash) return `servers "${clash}" and "${spec.name}" would both name their tools mcp__${sanitizeMcpName(spec.name)}__…: rename one`;
    const old = this.#entries.get(spec.name);
    if (old && sameSpec(old.state.spec, spec) && old.state.status !== 'blocked') return null;
    if (old) void this.#close(old);
    this.#entries.set(spec.name, { state: { spec, status: 'idle', tools: [], skipped: [] }, attempt: (old?.attempt ?? 0) + 1 });
    this.#changed();
    return null;
  }

  /** Lists a server that may not run (not approved, unsupported), with why; it never connects. */
  block(spec: McpServerSpec, reason: string, phase: 'config' | 'trust'): void {
    const old = this.#entries.get(spec.name);
    if (old?.state.status === 'blocked' && old.state.error === reason && sameSpec(old.state.spec, spec)) return;
    if (old) void this.#close(old);
    this.#entries.set(spec.name, { state: { spec, status: 'blocked', error: reason, tools: [], skipped: [] }, attempt: (old?.attempt ?? 0) + 1 });
    this.#events.push({ type: 'mcp.error', server: spec.name, phase, message: reason });
    this.#changed();
  }

  async remove(name: string): Promise<void> {
    const e = this.#entries.get(name);
    if (!e) return;
    this.#entries.delete(name);
    this.#changed();
    await this.#close(e);
  }

  /** Removes the servers of `scope` that are not in `keep` (a `.mcp.json` that lost an entry). */
  async prune(scope: McpServerScope, keep: ReadonlySet<string>): Promise<void> {
    for (const s of this.list()) if (s.spec.scope === scope && !keep.has(s.spec.name)) await this.remove(s.spec.name);
  }

  /**
   * Connects every server that is not connected, blocked or already connecting (failed ones are
   * tried again). The caller's signal gets one listener for all of them, not one per server (a
   * run's signal is shared by everything in the run; Node warns past 10 listeners).
   */
  async connectAll(signal?: AbortSignal): Promise<void> {
    const names = [...this.#entries.keys()].filter((n) => ['idle', 'failed'].includes(this.#entries.get(n)!.state.status));
    if (!signal || names.length < 2) {
      await Promise.all(names.map((n) => this.connect(n, signal)));
      return;
    }
    const each = names.map(() => new AbortController());
    const relay = () => each.forEach((c) => c.abort(signal.reason));
    if (signal.aborted) relay();
    else signal.addEventListener('abort', relay, { once: true });
    try {
      await Promise.all(names.map((n, i) => this.connect(n, each[i]!.signal)));
    } finally {
      signal.removeEventListener('abort', relay);
    }
  }

  /** (Re)connects one server: handshake, then its tool list. */
  async connect(name: string, signal?: AbortSignal): Promise<void> {
    const entry = this.#entries.get(name);
    if (!entry || entry.state.status === 'blocked') return;
    if (entry.connection) await this.#close(entry);
    const attempt = ++entry.attempt;
    const { spec } = entry.state;
    const current = () => this.#entries.get(name) === entry && entry.attempt === attempt;
    this.#update(entry, { status: 'connecting', tools: [], skipped: [] });
    if (!this.connector) return this.#fail(entry, 'connect', 'this runner has no MCP connector');
    const started = this.now();
    let connection: McpConnection;
    try {
      connection = await this.connector.connect(spec, { timeoutMs: spec.timeoutMs ?? this.connectTimeoutMs, ...(signal ? { signal } : {}) });
    } catch (e) {
      if (current()) this.#fail(entry, 'connect', messageOf(e));
      return;
    }
    if (!current()) return void connection.close();
    entry.connection = connection;
    this.#events.push({
      type: 'mcp.connect',
      server: name,
      transport: connection.transport,
      ...(spec.url ? { url: spec.url } : {}),
      ...(connection.serverName ? { serverName: connection.serverName } : {}),
      ...(connection.serverVersion ? { serverVersion: connection.serverVersion } : {}),
      ms: this.now() - started,
    });
    let raw: unknown[];
    try {
      raw = await connection.listTools({ timeoutMs: spec.timeoutMs ?? this.connectTimeoutMs, ...(signal ? { signal } : {}) });
    } catch (e) {
      if (current()) this.#fail(entry, 'list', messageOf(e));
      return;
    }
    if (!current()) return;
    const { tools, skipped } = readToolList(name, raw);
    this.#events.push({
      type: 'mcp.tools',
      server: name,
      tools: tools.map((t) => ({ name: t.fullName, tool: t.info.name, description: t.info.description ?? '', readOnly: t.info.annotations?.readOnlyHint === true })),
      skipped,
    });
    this.#update(entry, {
      status: 'connected',
      tools,
      skipped,
      ...(connection.serverName ? { serverName: connection.serverName } : {}),
      ...(connection.serverVersion ? { serverVersion: connection.serverVersion } : {}),
    });
  }

  async disconnect(name: string): Promise<void> {
    const e = this.#entries.get(name);
    if (!e || e.state.status === 'blocked') return;
    e.attempt++;
    await this.#close(e);
    this.#update(e, { status: 'idle', tools: [], skipped: [] });
  }

  /** The tools of every connected server, as harness tools. */
  tools(): AnyTool[] {
    const out: AnyTool[] = [];
    for (const e of this.#entries.values()) {
      if (e.state.status !== 'connected' || !e.connection) continue;
      for (const t of e.state.tools) out.push(mcpTool(e.state.spec, t, e.connection, this.now));
    }
    return out;
  }

  /** What happened since the last run started (connects, tool lists, errors), oldest first; empties the queue. */
  drainEvents(): TraceEventBody[] {
    const out = this.#events;
    this.#events = [];
    return out;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#entries.values()].map((e) => this.#close(e)));
  }

  #fail(entry: Entry, phase: 'connect' | 'list', message: string): void {
    this.#events.push({ type: 'mcp.error', server: entry.state.spec.name, phase, message });
    void this.#close(entry);
    this.#update(entry, { status: 'failed', error: message, tools: [], skipped: [] });
  }

  async #close(entry: Entry): Promise<void> {
    const c = entry.connection;
    delete entry.connection;
    if (c) await c.close().catch(() => undefined);
  }

  #update(entry: Entry, patch: Partial<McpServerState>): void {
    const next: McpServerState = { ...entry.state, ...patch };
    if (patch.status && patch.status !== 'failed' && patch.status !== 'blocked') delete next.error;
    entry.state = next;
    this.#changed();
  }

  #changed(): void {
    for (const fn of this.#listeners) fn();
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
