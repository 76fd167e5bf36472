/**
 * The MCP servers saved in this browser (`storage/mcp-servers.ts`, `storage/local/mcp-server-store.ts`):
 * name, URL and transport round-trip; a header's value is never stored (its name is); a damaged
 * record is quarantined with its raw text, left in place, and the other servers still load.
 */
import { describe, expect, it } from 'vitest';
import { LocalMcpServerStore, MCP_SERVER_KEY_PREFIX } from '../../src/storage/local/mcp-server-store.ts';
import { parseSavedMcpServer, savedRecordOf, specOfSaved } from '../../src/storage/mcp-servers.ts';
import { Quarantine } from '../../src/storage/quarantine.ts';
import { savedServerUrls } from '../../src/storage/local/mcp-server-keys.ts';
import { McpSession } from '../../src/ui/mcp/mcp-session.svelte.ts';
import { allowedConnectOrigins } from '../../src/security/connect-lock.svelte.ts';

/** A Storage with the browser's interface, in memory. */
class MemoryStorage {
  readonly map = new Map<string, string>();
  full = false;
  get length() {
    return this.map.size;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (this.full) throw new Error('QuotaExceededError');
    this.map.set(k, v);
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

const lb = { name: 'lb', transport: 'http' as const, url: 'http://127.0.0.1:4000/mcp', scope: 'user' as const };

describe('saved MCP servers', () => {
  it('round-trips name, URL and transport, and forgets one', () => {
    const storage = new MemoryStorage();
    const store = new LocalMcpServerStore(storage);
    const a = savedRecordOf(lb, 1);
    const b = savedRecordOf({ ...lb, name: 'old', transport: 'sse', url: 'https://example.com/sse' }, 2);
    if (typeof a === 'string' || typeof b === 'string') throw new Error('not saved');
    expect(store.save(b)).toBeNull();
    expect(store.save(a)).toBeNull();
    storage.setItem('hp.theme', 'dark'); // other keys are not servers
    const back = new LocalMcpServerStore(storage).list();
    expect(back.map((s) => [s.name, s.transport, s.url])).toEqual([
      ['lb', 'http', 'http://127.0.0.1:4000/mcp'],
      ['old', 'sse', 'https://example.com/sse'],
    ]);
    expect(specOfSaved(back[0]!)).toEqual(lb);
    store.forget('lb');
    expect(store.list().map((s) => s.name)).toEqual(['old']);
  });

  it('never stores a header value, only its name', () => {
    const storage = new MemoryStorage();
    const record = savedRecordOf({ ...lb, headers: { Authorization: 'Bearer sk-secret-123' } }, 1);
    if (typeof record === 'string') throw new Error(record);
    new LocalMcpServerStore(storage).save(record);
    const raw = [...storage.map.values()].join('');
    expect(raw).not.toContain('sk-secret-123');
    expect(new LocalMcpServerStore(storage).list()[0]!.headerNames).toEqual(['Authorization']);
    // A record that carries header values (written by anything else) does not load.
    expect(parseSavedMcpServer({ ...record, headers: { Authorization: 'x' } })).toMatch(/headers/);
  });

  it('only servers added by URL are saved; a bad record is refused on the way in', () => {
    expect(savedRecordOf({ name: 'notes', transport: 'in-page', source: 'x', scope: 'user' }, 1)).toMatch(/by URL/);
    expect(savedRecordOf({ ...lb, url: 'file:///etc/passwd' }, 1)).toMatch(/http\(s\)/);
    const store = new LocalMcpServerStore(new MemoryStorage());
    expect(store.save({ version: 1, name: 'bad name!', transport: 'http', url: lb.url, savedAt: 1 })).toMatch(/could not be saved/);
  });

  it('a damaged record is quarantined with its raw text and left in place; the others load', () => {
    const storage = new MemoryStorage();
    const quarantine = new Quarantine();
    const good = savedRecordOf(lb, 1);
    if (typeof good === 'string') throw new Error(good);
    new LocalMcpServerStore(storage).save(good);
    storage.setItem(`${MCP_SERVER_KEY_PREFIX}broken`, '{"version":1,"name":"broken",');
    storage.setItem(`${MCP_SERVER_KEY_PREFIX}wrong`, JSON.stringify({ ...good, name: 'wrong', transport: 'stdio' }));
    storage.setItem(`${MCP_SERVER_KEY_PREFIX}other`, JSON.stringify({ ...good, name: 'lb' }));
    const store = new LocalMcpServerStore(storage, quarantine);
    expect(store.list().map((s) => s.name)).toEqual(['lb']);
    const records = quarantine.list();
    expect(records.map((r) => r.key).sort()).toEqual([`${MCP_SERVER_KEY_PREFIX}broken`, `${MCP_SERVER_KEY_PREFIX}other`, `${MCP_SERVER_KEY_PREFIX}wrong`]);
    const broken = records.find((r) => r.key.endsWith('broken'))!;
    expect(broken).toMatchObject({ store: 'localStorage', raw: '{"version":1,"name":"broken",' });
    expect(broken.problem).toMatch(/saved MCP server .* is damaged \(not JSON\)/);
    expect(records.find((r) => r.key.endsWith('wrong'))!.problem).toMatch(/transport/);
    expect(records.find((r) => r.key.endsWith('other'))!.problem).toMatch(/does not match its key/);
    // Saving another server leaves the damaged ones as they were.
    store.save({ ...good, name: 'lb2' });
    expect(storage.getItem(`${MCP_SERVER_KEY_PREFIX}broken`)).toBe('{"version":1,"name":"broken",');
  });

  it('storage that is full says so in words', () => {
    const storage = new MemoryStorage();
    storage.full = true;
    const record = savedRecordOf(lb, 1);
    if (typeof record === 'string') throw new Error(record);
    expect(new LocalMcpServerStore(storage).save(record)).toMatch(/could not be saved in this browser \(QuotaExceededError\)/);
  });

  // A live page narrows connect-src at start-up; the saved servers' full read (zod) comes later. Their
  // origins are allowed first, from their URLs alone — so a saved server can connect after a reload.
  it('the saved servers\' origins are allowed at start-up, before their full read: only records under their own name with a string URL', async () => {
    const storage = new MemoryStorage();
    const record = savedRecordOf({ ...lb, url: 'http://127.0.0.1:4711/mcp' }, 1);
    if (typeof record === 'string') throw new Error(record);
    new LocalMcpServerStore(storage).save(record);
    storage.setItem(`${MCP_SERVER_KEY_PREFIX}posing`, JSON.stringify({ name: 'other', url: 'http://127.0.0.1:4712/' }));
    storage.setItem(`${MCP_SERVER_KEY_PREFIX}nourl`, JSON.stringify({ name: 'nourl', url: 5 }));
    storage.setItem(`${MCP_SERVER_KEY_PREFIX}torn`, '{"name":"torn","url":"http://127.0.0.1:4713/');
    expect(savedServerUrls(storage)).toEqual(['http://127.0.0.1:4711/mcp']);
    expect(savedServerUrls(null)).toEqual([]);

    let opened = false;
    const session = new McpSession(async () => ((opened = true), new LocalMcpServerStore(storage)), savedServerUrls(storage));
    // Allowed by the constructor, before the store (and its schema) is opened.
    expect(allowedConnectOrigins()).toContain('http://127.0.0.1:4711');
    expect(allowedConnectOrigins()).not.toContain('http://127.0.0.1:4712');
    expect(opened).toBe(false);
    expect(session.saved).toEqual([]);
    await session.loadSaved();
    expect(opened).toBe(true);
    expect(session.saved.map((s) => s.name)).toEqual(['lb']);
  });

  it("a run does not wait for the saved list (it connects none of them), and gets the registry only on demand", async () => {
    let opened = false;
    // A store that is still opening (its chunk and schema on the way) for as long as this test runs.
    const session = new McpSession(() => ((opened = true), new Promise<never>(() => {})));
    const options = await session.runOptions('doc-A');
    expect(opened).toBe(true);
    expect(options.mcp.registry).toBeUndefined();
    expect(typeof options.mcp.openRegistry).toBe('function');
    expect(options.mcp.document).toBe('doc-A');
  });
});
