/**
 * What a record read back from storage must look like before anything uses it. Storage is
 * outside input too: another build, a browser extension, a half-finished write or a person with
 * devtools can leave a record that is not what this build wrote. Each check returns the record or
 * a sentence saying what is wrong (for the quarantine notice), never a throw.
 */
import { z } from 'zod';
import type { SessionInfo } from '../ports.ts';
import type { SessionLogEvent } from './types.ts';

const count = z.number().int().nonnegative();
const time = z.number().finite();

export const sessionInfoSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  parentId: z.string().optional(),
  forkedAt: count.optional(),
  scenarioId: z.string().optional(),
  createdAt: time,
  updatedAt: time,
  eventCount: count,
  bytes: count,
});

/** Every log entry is a JSON object with a string `type` (a trace event or a session marker). */
const logEntrySchema = z.looseObject({ type: z.string().min(1) });

/** Zod issues as one line: `path: message; …`. */
export function issuesText(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 4)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(record)'}: ${i.message}`)
    .join('; ');
}

/** A session's list record, or what is wrong with it. Unknown fields are dropped. */
export function checkSessionInfo(value: unknown): SessionInfo | string {
  const r = sessionInfoSchema.safeParse(value);
  if (!r.success) return issuesText(r.error.issues);
  const { parentId, forkedAt, scenarioId, ...rest } = r.data;
  return { ...rest, ...(parentId !== undefined ? { parentId } : {}), ...(forkedAt !== undefined ? { forkedAt } : {}), ...(scenarioId !== undefined ? { scenarioId } : {}) };
}

/** One stored log entry's JSON text → the entry, or what is wrong with it. */
export function checkLogEntry(json: unknown): SessionLogEvent | string {
  if (typeof json !== 'string') return 'the entry is not stored as JSON text';
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (e) {
    return `the entry is not valid JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  const r = logEntrySchema.safeParse(parsed);
  return r.success ? (r.data as SessionLogEvent) : `the entry is not an event (${issuesText(r.error.issues)})`;
}
