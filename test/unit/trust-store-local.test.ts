import { describe, expect, it } from 'vitest';
import { LocalTrustStore } from '../../src/storage/local/trust-store.ts';

/** A real in-memory Storage (the subset the store uses). */
function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe('LocalTrustStore', () => {
  it('remembers trust across instances on the same storage, and revokes it', async () => {
    const storage = memoryStorage();
    const a = new LocalTrustStore(storage);
    expect(await a.isTrusted('k1')).toBe(false);
    await a.trust('k1', 'Hooked scenario');
    const b = new LocalTrustStore(storage);
    expect(await b.isTrusted('k1')).toBe(true);
    expect(await b.isTrusted('k2')).toBe(false);
    expect(b.list().map((i) => i.label)).toEqual(['Hooked scenario']);
    await b.revoke('k1');
    expect(await a.isTrusted('k1')).toBe(false);
  });

  it('treats a corrupt record as nothing trusted (fail closed), and recovers on the next trust', async () => {
    for (const junk of ['{not json', '[1,2]', 'null', '"k1"']) {
      const storage = memoryStorage({ 'hp.trusted': junk });
      const s = new LocalTrustStore(storage);
      expect(await s.isTrusted('k1')).toBe(false);
      await s.trust('k2', 'x');
      expect(await s.isTrusted('k2')).toBe(true);
    }
  });

  it('does not count inherited object keys as trusted', async () => {
    const s = new LocalTrustStore(memoryStorage());
    expect(await s.isTrusted('constructor')).toBe(false);
    expect(await s.isTrusted('__proto__')).toBe(false);
  });
});
