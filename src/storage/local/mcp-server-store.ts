/**
 * A `SavedMcpServerStore` on localStorage: one key per server (`hp.mcp.server.<name>`), so adding
 * or removing one never rewrites another — a damaged record stays as it was, for export.
 */
import { rawText, type Quarantine } from '../quarantine.ts';
import { damagedMcpServer, parseSavedMcpServer, type SavedMcpServer, type SavedMcpServerStore } from '../mcp-servers.ts';

import { MCP_SERVER_KEY_PREFIX, savedServerKeys } from './mcp-server-keys.ts';

export { MCP_SERVER_KEY_PREFIX };

type Storage_ = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export class LocalMcpServerStore implements SavedMcpServerStore {
  constructor(
    private readonly storage: Storage_,
    private readonly quarantine?: Quarantine,
  ) {}

  list(): SavedMcpServer[] {
    const out: SavedMcpServer[] = [];
    for (const key of this.keys()) {
      const raw = this.storage.getItem(key);
      if (raw === null) continue;
      const problem = (p: string) => this.quarantine?.add({ store: 'localStorage', key, problem: damagedMcpServer(key, p), raw: rawText(raw) });
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        problem('not JSON');
        continue;
      }
      const parsed = parseSavedMcpServer(value);
      if (typeof parsed === 'string') problem(parsed);
      else if (`${MCP_SERVER_KEY_PREFIX}${parsed.name}` !== key) problem(`its name "${parsed.name}" does not match its key`);
      else out.push(parsed);
    }
    return out.sort((a, b) => a.savedAt - b.savedAt);
  }

  save(server: SavedMcpServer): string | null {
    const parsed = parseSavedMcpServer(server);
    if (typeof parsed === 'string') return `The server could not be saved: ${parsed}.`;
    try {
      this.storage.setItem(`${MCP_SERVER_KEY_PREFIX}${parsed.name}`, JSON.stringify(parsed));
      return null;
    } catch (e) {
      return `The server could not be saved in this browser (${e instanceof Error ? e.message : String(e)}); it is listed until the page is reloaded.`;
    }
  }

  forget(name: string): void {
    try {
      this.storage.removeItem(`${MCP_SERVER_KEY_PREFIX}${name}`);
    } catch {
      // Storage off: there was nothing saved to forget.
    }
  }

  private keys(): string[] {
    return savedServerKeys(this.storage);
  }
}
