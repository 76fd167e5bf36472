/**
 * Where the MCP servers saved in this browser live in localStorage (`mcp-server-store.ts` keeps
 * them), and the one thing the page must read of them before anything else runs: their URLs.
 *
 * A page that starts in live mode narrows its connect-src to the model endpoint at once
 * (`ui/state/settings.svelte.ts`); a saved server's origin must be allowed before that, or it could
 * never connect after a reload. The records' full check (zod, `mcp-servers.ts`) is not in the first
 * screen, so this reads only what the origin needs, without it: a record whose `name` is its key's
 * and whose `url` is a string (the connect lock takes only http(s) origins from it). Anything else
 * is left to the full read, which quarantines it.
 */
export const MCP_SERVER_KEY_PREFIX = 'hp.mcp.server.';

type Storage_ = Pick<Storage, 'getItem' | 'key' | 'length'>;

/** The keys of the saved servers; none when storage is off. */
export function savedServerKeys(storage: Pick<Storage, 'key' | 'length'> | null): string[] {
  try {
    const keys: string[] = [];
    for (let i = 0; storage && i < storage.length; i++) {
      const k = storage.key(i);
      if (k?.startsWith(MCP_SERVER_KEY_PREFIX)) keys.push(k);
    }
    return keys;
  } catch {
    return []; // Storage disabled: nothing saved.
  }
}

/** The URLs of the saved servers (unchecked but for the above); none when storage is off. */
export function savedServerUrls(storage: Storage_ | null): string[] {
  const urls: string[] = [];
  for (const key of savedServerKeys(storage)) {
    let record: unknown;
    try {
      record = JSON.parse(storage?.getItem(key) ?? 'null');
    } catch {
      continue;
    }
    const { name, url } = (record ?? {}) as { name?: unknown; url?: unknown };
    if (typeof url === 'string' && `${MCP_SERVER_KEY_PREFIX}${String(name)}` === key) urls.push(url);
  }
  return urls;
}
