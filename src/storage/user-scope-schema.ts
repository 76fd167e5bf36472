/**
 * The schema of the stored user scope (`user-scope.ts`) and its check. Its own module because it
 * brings zod and the settings schema (yaml, re2js): the IndexedDB store loads it with `import()`
 * when it first reads or writes, so the first screen does not carry it (issue 23 §4).
 */
import { z } from 'zod';
import { settingsSchema } from '../harness/settings/index.ts';
import { issuesText } from '../harness/session/index.ts';

export const userScopeSchema = z
  .object({
    id: z.literal('user'),
    /** The file it came from, as imported (`~/.claude/settings.json`). */
    file: z.string().min(1).max(500),
    settings: settingsSchema,
    /** Milliseconds since the epoch. */
    savedAt: z.number().finite(),
    /** The imported scenario that brought it: trusting that scenario trusts this scope too. */
    broughtBy: z.string().max(200).optional(),
  })
  .strict();

export type StoredUserScope = z.output<typeof userScopeSchema>;

/** The record read back, or what is wrong with it. */
export function parseUserScope(r: unknown): StoredUserScope | string {
  const p = userScopeSchema.safeParse(r);
  return p.success ? p.data : issuesText(p.error.issues);
}
