/**
 * Memory entries as data: validation (shared by every `MemoryStore`, so they agree on what is
 * an entry) and the normal form used to tell two facts apart.
 */
import type { MemoryEntry, MemorySource } from '../ports.ts';
import { parseOrigin } from './origin.ts';

export const MEMORY_SOURCES: readonly MemorySource[] = ['extracted', 'explicit', 'project_file', 'compaction_summary'];

/** Longest fact kept; a memory is a sentence or two, not a whole file. */
export const MAX_MEMORY_CHARS = 1_000;

/**
 * `value` as a clean copy of an entry, or a sentence saying what is wrong with it. Unknown
 * fields are dropped so a store never keeps more than the contract names.
 */
export function parseEntry(value: unknown): MemoryEntry | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'an entry must be an object';
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || v.id.trim() === '') return 'an entry needs a non-empty string id';
  if (typeof v.content !== 'string' || v.content.trim() === '') return `entry ${v.id}: content must be non-empty text`;
  if (typeof v.source !== 'string' || !(MEMORY_SOURCES as readonly string[]).includes(v.source)) {
    return `entry ${v.id}: source must be one of ${MEMORY_SOURCES.join(', ')}`;
  }
  if (!Number.isFinite(v.createdAt) || !Number.isFinite(v.updatedAt)) return `entry ${v.id}: createdAt and updatedAt must be numbers`;
  if (v.tags !== undefined && !(Array.isArray(v.tags) && v.tags.every((t) => typeof t === 'string'))) {
    return `entry ${v.id}: tags must be a list of strings`;
  }
  if (v.references !== undefined && !(Number.isInteger(v.references) && (v.references as number) >= 0)) return `entry ${v.id}: references must be a count (0 or more)`;
  if (v.lastReferencedAt !== undefined && !Number.isFinite(v.lastReferencedAt)) return `entry ${v.id}: lastReferencedAt must be a number`;
  const origin = parseOrigin(v.origin);
  return {
    id: v.id,
    content: v.content,
    source: v.source as MemorySource,
    createdAt: v.createdAt as number,
    updatedAt: v.updatedAt as number,
    ...(v.tags ? { tags: [...(v.tags as string[])] } : {}),
    // A missing or malformed origin reads as legacy (the user's): old records keep loading.
    ...(origin ? { origin } : {}),
    ...(v.references !== undefined ? { references: v.references as number } : {}),
    ...(v.lastReferencedAt !== undefined ? { lastReferencedAt: v.lastReferencedAt as number } : {}),
  };
}

/** Oldest first, ties by id: the order `MemoryStore.list` promises. */
export function byAge(a: MemoryEntry, b: MemoryEntry): number {
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The form two facts are compared in: lower case, quotes and trailing punctuation gone,
 * whitespace collapsed. "Uses  pnpm." and "uses pnpm" are the same memory.
 */
export function normalizeFact(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`"'“”‘’]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\s.!;:,]+$/, '');
}
