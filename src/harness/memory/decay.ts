/**
 * Decay by reference: a memory the agent keeps being given stays strong; one nobody has been given
 * for a long time fades, and an extracted one that was (almost) never used is pruned. Seed 000's
 * "relevance and decay by reference count", by numbers a learner can redo by hand:
 *
 * - **references**: how many runs a memory was injected into (`MemoryEntry.references`, counted by
 *   `prepareMemory` when it is chosen), and when last (`lastReferencedAt`).
 * - **idle** = now − (lastReferencedAt, else updatedAt).
 * - **decay** = max({@link DECAY_FLOOR}, 0.5^(idle / {@link DECAY_HALF_LIFE_MS})) multiplies the
 *   keyword score: a memory idle for 30 days counts half, never less than a quarter.
 * - **use** = {@link USE_WEIGHT} × log2(1 + references) is added: often-used memories rank up a
 *   little, far below one matching word.
 * - **pruned**: an `extracted` memory (not one the user said, a CLAUDE.md line or a summary) idle for
 *   {@link PRUNE_IDLE_MS} (90 days) with fewer than {@link PRUNE_MIN_REFERENCES} references is
 *   deleted from the store at the next selection, and listed as `decayed` in `memory.injected`.
 */
import type { MemoryEntry } from '../ports.ts';

export const DECAY_HALF_LIFE_MS = 30 * 24 * 60 * 60 * 1000;
export const DECAY_FLOOR = 0.25;
export const USE_WEIGHT = 0.05;
export const PRUNE_IDLE_MS = 90 * 24 * 60 * 60 * 1000;
export const PRUNE_MIN_REFERENCES = 2;

export function idleMs(entry: MemoryEntry, now: number): number {
  return Math.max(0, now - (entry.lastReferencedAt ?? entry.updatedAt));
}

/** The multiplier on a memory's keyword score (1 when just used, halving every 30 idle days, floor 0.25). */
export function decayOf(entry: MemoryEntry, now: number): number {
  return Math.max(DECAY_FLOOR, 0.5 ** (idleMs(entry, now) / DECAY_HALF_LIFE_MS));
}

/** The small bonus for having been used: 0.05 × log2(1 + references). */
export function useOf(entry: MemoryEntry): number {
  return USE_WEIGHT * Math.log2(1 + (entry.references ?? 0));
}

/** Extracted memories idle 90 days with fewer than 2 references: pruned. */
export function isDecayed(entry: MemoryEntry, now: number): boolean {
  return entry.source === 'extracted' && (entry.references ?? 0) < PRUNE_MIN_REFERENCES && idleMs(entry, now) >= PRUNE_IDLE_MS;
}

/** The entry after one more run was given it. */
export function referenced(entry: MemoryEntry, now: number): MemoryEntry {
  return { ...entry, references: (entry.references ?? 0) + 1, lastReferencedAt: now };
}
