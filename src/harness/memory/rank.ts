/**
 * Relevance of memories to a prompt, by a score a learner can redo by hand:
 *
 *   score = BM25(prompt terms, memory) × decay + recency + use   (decay and use: `decay.ts`)
 *
 * - **Terms** are lower-cased words split on anything that is not a letter or digit, minus
 *   common English stop words, cut to a crude stem (`tests`, `testing`, `tested` → `test`).
 * - **BM25** (k1 = 1.2, b = 0.75) over the memories as the corpus: a prompt term found in a
 *   memory adds idf × tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen)), with
 *   idf = ln(1 + (N − df + 0.5) / (df + 0.5)). Rare shared words count most; each prompt term
 *   counts once however often the prompt repeats it.
 * - **Recency** is a small bonus, {@link RECENCY_WEIGHT} × 0.5^(age / {@link RECENCY_HALF_LIFE_MS})
 *   from `updatedAt`, so among equally relevant memories the fresher one wins — but it is far
 *   below one matching word, so a recent memory never beats a relevant one on age alone.
 * - A memory with no term in common with the prompt scores 0 on keywords and is not injected.
 */
import type { MemoryEntry } from '../ports.ts';
import { decayOf, useOf } from './decay.ts';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
export const RECENCY_WEIGHT = 0.1;
export const RECENCY_HALF_LIFE_MS = 7 * 24 * 60 * 60 * 1000;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'just me my no not of on or our please should so than that the their them then there these they this to ' +
    'too us was we were what when where which who why will with would you your'
  ).split(' '),
);

/** A crude suffix stripper: enough for "tests / testing / tested" to meet, not a linguist. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return undouble(word.slice(0, -3));
  if (word.length > 4 && word.endsWith('ed')) return undouble(word.slice(0, -2));
  if (word.length > 4 && /(s|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** "running" → "runn" → "run". */
function undouble(w: string): string {
  return /([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w) ? w.slice(0, -1) : w;
}

/** The terms of a text, in order, repeats kept (term frequency counts them). */
export function terms(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map(stem);
}

/** `keyword` is already multiplied by `decay`; `score` = keyword + recency + use (`decay.ts`). */
export type Scored = { entry: MemoryEntry; keyword: number; recency: number; score: number; decay: number; use: number };

/** Every entry with its score, best first (ties: newer first, then id). */
export function rankMemories(entries: readonly MemoryEntry[], prompt: string, now: number): Scored[] {
  const query = [...new Set(terms(prompt))];
  const docs = entries.map((e) => terms([e.content, ...(e.tags ?? [])].join(' ')));
  const n = docs.length;
  const avgLen = n === 0 ? 0 : docs.reduce((s, d) => s + d.length, 0) / n;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);

  const scored = entries.map((entry, i): Scored => {
    const doc = docs[i]!;
    const tf = new Map<string, number>();
    for (const t of doc) tf.set(t, (tf.get(t) ?? 0) + 1);
    let keyword = 0;
    for (const q of query) {
      const f = tf.get(q) ?? 0;
      if (f === 0) continue;
      const d = df.get(q) ?? 0;
      const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      keyword += (idf * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * doc.length) / (avgLen || 1)));
    }
    const age = Math.max(0, now - entry.updatedAt);
    const recency = RECENCY_WEIGHT * 0.5 ** (age / RECENCY_HALF_LIFE_MS);
    // Decay by reference (decay.ts): an idle memory's words count less; a used one gets a small bonus.
    const decay = decayOf(entry, now);
    const use = keyword > 0 ? useOf(entry) : 0;
    const k = keyword * decay;
    return { entry, keyword: round(k), recency: round(recency), score: round(k + recency + use), decay: round(decay), use: round(use) };
  });
  return scored.sort(
    (a, b) => b.score - a.score || b.entry.updatedAt - a.entry.updatedAt || (a.entry.id < b.entry.id ? -1 : 1),
  );
}

/** Three decimals: enough to order, short enough to read in an event. */
function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
