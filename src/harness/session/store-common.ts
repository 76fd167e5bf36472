/**
 * What both `SessionStore` implementations share, so they cannot drift apart: sizes, ordering,
 * argument checks and the error wording.
 */
import { boundDepth } from './bound-depth.ts';
import type {
  SessionInfo,
  SessionResult,
  SessionStoreError,
  SessionStoreErrorCode,
  SessionUsage,
  StorageEstimate,
} from '../ports.ts';
import type { SessionLogEvent } from './types.ts';
import { redactText } from './redact.ts';

export const ok = <T>(value: T): SessionResult<T> => ({ ok: true, value });

export const fail = <T = never>(code: SessionStoreErrorCode, message: string): SessionResult<T> => ({
  ok: false,
  error: { code, message },
});

export const notFoundError = (sessionId: string): SessionStoreError => ({
  code: 'not_found',
  message: `There is no session "${sessionId}" (it may have been deleted in another tab). Pick another one from the list.`,
});

export const notFound = <T = never>(sessionId: string): SessionResult<T> => ({ ok: false, error: notFoundError(sessionId) });

/** UTF-8 length of a string without allocating an encoder buffer. */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** One log entry as stored: its JSON (the deep copy) and that JSON's UTF-8 size. */
export type EncodedEntry = { json: string; bytes: number };

/**
 * Serialises a batch once: the JSON is both the copy that gets stored and the size counted.
 * Returns an `invalid` error for anything that is not a JSON object with a string `type`.
 */
export function encodeBatch(
  events: readonly SessionLogEvent[],
): { ok: true; entries: EncodedEntry[]; bytes: number } | { ok: false; error: SessionStoreError } {
  const entries: EncodedEntry[] = [];
  let bytes = 0;
  for (let i = 0; i < events.length; i++) {
    // Nesting past the cap (a hostile tool input) would overflow the stack of every later write.
    const e = boundDepth(events[i] as unknown);
    let json: string | undefined;
    try {
      json = JSON.stringify(e);
    } catch (err) {
      return { ok: false, error: { code: 'invalid', message: `Entry ${i} of the batch cannot be stored: ${(err as Error).message}.` } };
    }
    if (!json || typeof e !== 'object' || e === null || Array.isArray(e) || typeof (e as { type?: unknown }).type !== 'string') {
      return { ok: false, error: { code: 'invalid', message: `Entry ${i} of the batch is not an event (a JSON object with a "type").` } };
    }
    const size = utf8Bytes(json);
    bytes += size;
    entries.push({ json, bytes: size });
  }
  return { ok: true, entries, bytes };
}

/** Most recently updated first; ties by newer creation, then id, so the order is total. */
export function newestFirst(a: SessionInfo, b: SessionInfo): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function checkTitle(title: string): SessionStoreError | null {
  if (typeof title !== 'string' || title.trim() === '') return { code: 'invalid', message: 'A session needs a title; type one.' };
  if (title.length > 500) return { code: 'invalid', message: 'A session title may be at most 500 characters.' };
  return null;
}

export function checkForkPosition(info: SessionInfo, atSeq: number): SessionStoreError | null {
  if (!Number.isInteger(atSeq) || atSeq < 0 || atSeq > info.eventCount) {
    return {
      code: 'invalid',
      message: `Cannot fork "${info.title}" at entry ${atSeq}: its log has entries 1 to ${info.eventCount} (0 forks an empty log).`,
    };
  }
  return null;
}

export const quotaMessage = (what: string): string =>
  `The browser's storage for this site is full, so ${what} was not saved. The session is still open in memory: delete old sessions (Sessions panel), then it is saved on the next step.`;

/**
 * A title as it is stored: trimmed, and anything shaped like an API key redacted. Titles are
 * derived from the first prompt, which is where a person pastes a key; they show in the sessions
 * list and travel in exports, so the store itself refuses to keep one (the page also redacts the
 * key it holds, whatever its shape, before it asks).
 */
export function storedTitle(title: string): string {
  return redactText(title.trim());
}

/** A new, empty session's record, created and updated `now`. */
export function newSessionInfo(o: { id: string; title: string; scenarioId?: string | undefined; now: number }): SessionInfo {
  return {
    id: o.id,
    title: storedTitle(o.title),
    ...(o.scenarioId ? { scenarioId: o.scenarioId } : {}),
    createdAt: o.now,
    updatedAt: o.now,
    eventCount: 0,
    bytes: 0,
  };
}

/** The record of a fork of `parent` at entry `atSeq`, holding `eventCount` copied entries of `bytes`. */
export function forkedSessionInfo(
  parent: SessionInfo,
  o: { id: string; title: string; atSeq: number; now: number; eventCount: number; bytes: number },
): SessionInfo {
  return {
    id: o.id,
    title: storedTitle(o.title),
    parentId: parent.id,
    forkedAt: o.atSeq,
    ...(parent.scenarioId ? { scenarioId: parent.scenarioId } : {}),
    createdAt: o.now,
    updatedAt: o.now,
    eventCount: o.eventCount,
    bytes: o.bytes,
  };
}

/** Usage from the logs' total and the origin's estimate; a failing estimate only leaves its figures out. */
export async function usageOf(sessionsBytes: number, estimate?: () => Promise<StorageEstimate>): Promise<SessionResult<SessionUsage>> {
  const est = estimate ? await estimate().catch(() => ({}) as StorageEstimate) : {};
  return ok({
    sessionsBytes,
    ...(est.usage !== undefined ? { usedBytes: est.usage } : {}),
    ...(est.quota !== undefined ? { quotaBytes: est.quota } : {}),
  });
}
