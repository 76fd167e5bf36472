/**
 * The MCP servers the user added by URL, kept in this browser so they are listed again after a
 * reload — saved, not connected: nothing connects (no SDK load, no request) until the user asks.
 *
 * What is kept: name, URL, transport. Never a secret: a header's value (a token) is not stored,
 * only its name, so the page can say which values it needs again. Each server is one record,
 * checked on the way in and out; a damaged one is quarantined (with its raw text) and left where
 * it is, and the others load.
 */
import { z } from 'zod';
import type { mcp } from '../harness/index.ts';
import { issuesText } from '../harness/session/index.ts';

const httpUrl = z
  .string()
  .max(2000)
  .refine((u) => {
    try {
      return ['http:', 'https:'].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'not an http(s) URL');

export const savedMcpServerSchema = z
  .object({
    version: z.literal(1),
    /** The panel's name rule (`mcp-session.svelte.ts`). */
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, '1–40 letters, digits, "_", "-" or "."'),
    transport: z.enum(['http', 'sse']),
    url: httpUrl,
    /** Names of the headers it was added with; their values are asked for again. */
    headerNames: z.array(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'not a header name')).max(50).optional(),
    /** Milliseconds since the epoch. */
    savedAt: z.number().finite(),
  })
  .strict();

export type SavedMcpServer = z.output<typeof savedMcpServerSchema>;

/** The record read back, or what is wrong with it. */
export function parseSavedMcpServer(r: unknown): SavedMcpServer | string {
  const p = savedMcpServerSchema.safeParse(r);
  return p.success ? p.data : issuesText(p.error.issues);
}

/** What is saved of a remote server the user added: its header values are dropped here. */
export function savedRecordOf(spec: mcp.McpServerSpec, savedAt: number): SavedMcpServer | string {
  if (spec.transport === 'in-page' || !spec.url) return 'only servers added by URL are saved';
  const headerNames = Object.keys(spec.headers ?? {});
  return parseSavedMcpServer({ version: 1, name: spec.name, transport: spec.transport, url: urlWithoutCredentials(spec.url), ...(headerNames.length ? { headerNames } : {}), savedAt });
}

/** Query parameters that carry credentials (`?token=`, `?api_key=`, `?access_token=`, `?sig=` …). */
const CREDENTIAL_PARAM = /token|key|secret|passw|auth|sig|credential|session/i;

/**
 * A URL as it may be kept in localStorage: no user name or password, no credential-looking query
 * parameter. The connection in this tab keeps the full URL; after a reload the person adds the
 * credential again (as for header values, which are never saved).
 */
export function urlWithoutCredentials(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  const secrets = [...url.searchParams.keys()].filter((name) => CREDENTIAL_PARAM.test(name));
  if (!url.username && !url.password && secrets.length === 0) return raw;
  url.username = '';
  url.password = '';
  for (const name of secrets) url.searchParams.delete(name);
  return url.toString();
}

/** The spec a saved server connects with (the user's scope; header values, if any, from the user again). */
export function specOfSaved(saved: SavedMcpServer, headers?: Record<string, string>): mcp.McpServerSpec {
  return { name: saved.name, transport: saved.transport, url: saved.url, scope: 'user', ...(headers && Object.keys(headers).length ? { headers } : {}) };
}

export const damagedMcpServer = (key: string, problem: string) =>
  `A saved MCP server (${key}) is damaged (${problem}), so it is not listed. Export the raw record, then dismiss it and add the server again.`;

export interface SavedMcpServerStore {
  /** The saved servers that pass the check, by name; damaged ones are quarantined and skipped. */
  list(): SavedMcpServer[];
  /** Saves (or replaces) one; a problem in words when it cannot be kept (storage full or off). */
  save(server: SavedMcpServer): string | null;
  forget(name: string): void;
}
