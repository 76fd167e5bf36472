/**
 * A fast, non-cryptographic 53-bit string hash (cyrb53) for fingerprints and cache keys.
 * Collisions are possible in principle and harmless here: a fingerprint only guards against
 * applying a stale collapse entry, and the cache simulator only estimates.
 */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * Chains two hashes (prefix hash + next item) into one, with integer arithmetic only: the prefix
 * of a request is chained once per block on every turn, so this must not build strings.
 */
export function chain(prefix: number, item: number): number {
  const pl = prefix >>> 0;
  const ph = (prefix / 4294967296) >>> 0;
  const il = item >>> 0;
  const ih = (item / 4294967296) >>> 0;
  let h1 = Math.imul(0xdeadbeef ^ pl, 2654435761) ^ Math.imul(il, 1597334677);
  let h2 = Math.imul(0x41c6ce57 ^ ph, 1597334677) ^ Math.imul(ih ^ il, 2654435761);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
