/**
 * Sessions in and out of the page as JSONL files: an export never holds the secrets in use (the
 * API key), and an import stores the file as a new session or names the line that is wrong —
 * a half-imported session is deleted again, so nothing is left behind.
 */
import { loadDocumentEngines } from '../../harness/util/index.ts';
import type { SessionInfo, SessionStore } from '../../harness/ports.ts';
import { exportSessionJsonl, importSessionJsonl } from '../../harness/session/index.ts';
import { asImportedLog, type Workbench } from '../sessions/workbench-record.ts';
import { openProblem } from '../sessions/open-check.ts';

export type Transfer<T> = { ok: true; value: T } | { ok: false; error: string; storage?: boolean };

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Session `id` as JSONL with every string of `secrets` redacted. */
export async function exportSession(store: SessionStore, id: string, secrets: string[]): Promise<Transfer<string>> {
  const log = await store.load(id);
  if (!log.ok) return { ok: false, error: log.error.message, storage: true };
  try {
    return { ok: true, value: exportSessionJsonl(log.value, { sessionId: id, secrets: secrets.filter((s) => s.trim() !== '') }) };
  } catch (err) {
    return { ok: false, error: `Export failed: ${errText(err)}` };
  }
}

/**
 * Stores the JSONL `text` of `fileName` as a new session. `storage`: the store failed (the banner),
 * else the file is wrong. `current`: the workbench in the page, which the session opens with (as an
 * import) when the file brings none. A file that would import but could not be opened is refused here.
 */
export async function importSession(store: SessionStore, text: string, fileName: string, current: Workbench): Promise<Transfer<SessionInfo>> {
  // Its workbench records (scenarios) are validated with yaml and RE2, loaded on demand.
  await loadDocumentEngines();
  const parsed = importSessionJsonl(text);
  if (!parsed.ok) return { ok: false, error: parsed.line && !parsed.error.startsWith(`Line ${parsed.line}`) ? `Line ${parsed.line}: ${parsed.error}` : parsed.error };
  if (parsed.events.length === 0) return { ok: false, error: `${fileName} holds no session records.` };
  const unopenable = openProblem(parsed.events);
  if (unopenable) return { ok: false, error: `${fileName} cannot be opened, so it was not imported: ${unopenable}` };
  const title = `Imported: ${fileName.replace(/\.jsonl?$/i, '') || 'session'}`;
  const created = await store.create({ title });
  if (!created.ok) return { ok: false, error: created.error.message, storage: true };
  // Whatever its records say, an imported session's workbench is outside content (restored untrusted).
  const appended = await store.append(created.value.id, asImportedLog(parsed.events, current, Date.now()));
  if (!appended.ok) {
    await store.delete(created.value.id);
    return { ok: false, error: appended.error.message, storage: true };
  }
  return { ok: true, value: appended.value };
}
