/**
 * A `TrustStore` on localStorage: what the user trusted survives reloads of this browser. Only
 * hashes of trusted content and a label are stored — never the content, never a key.
 * A corrupt or unavailable store counts as "nothing trusted" (fail closed: the dialog asks again).
 *
 * Migration: records of the old scheme (`hp.trusted`, keyed to a hash of hooks/allow rules/mode
 * only) are dropped, not converted — such a record would pre-trust any other document that shares
 * those rules. Keys now cover the whole document (`harness/trust/document-key.ts`); a document
 * trusted before simply asks once more.
 */
import type { TrustStore } from '../../harness/ports.ts';

const STORE_KEY = 'hp.trusted.v2';
/** The old scheme's records: removed on first use. */
const OLD_KEYS = ['hp.trusted'];

export type TrustedItem = { key: string; label: string; at: string };

type Records = Record<string, { label: string; at: string }>;

export class LocalTrustStore implements TrustStore {
  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> & Partial<Pick<Storage, 'removeItem'>> = globalThis.localStorage,
    private readonly now: () => Date = () => new Date(),
  ) {
    try {
      for (const old of OLD_KEYS) if (this.storage.getItem(old) !== null) this.storage.removeItem?.(old);
    } catch {
      // Storage disabled: there is nothing to migrate.
    }
  }

  private read(): Records {
    try {
      const parsed: unknown = JSON.parse(this.storage.getItem(STORE_KEY) ?? '{}');
      return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Records) : {};
    } catch {
      return {};
    }
  }

  private write(records: Records): void {
    try {
      this.storage.setItem(STORE_KEY, JSON.stringify(records));
    } catch {
      // Storage full or disabled: trust then lasts for this page only (the caller keeps its answer).
    }
  }

  async isTrusted(key: string): Promise<boolean> {
    return Object.hasOwn(this.read(), key);
  }

  async trust(key: string, label: string): Promise<void> {
    this.write({ ...this.read(), [key]: { label, at: this.now().toISOString() } });
  }

  async revoke(key: string): Promise<void> {
    const records = this.read();
    delete records[key];
    this.write(records);
  }

  /** What is trusted, newest first, for a "trusted scenarios" list. */
  list(): TrustedItem[] {
    return Object.entries(this.read())
      .map(([key, v]) => ({ key, label: String(v?.label ?? ''), at: String(v?.at ?? '') }))
      .sort((a, b) => (a.at < b.at ? 1 : -1));
  }
}
