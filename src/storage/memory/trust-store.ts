/**
 * An in-memory `TrustStore` for tests and headless runs: trust lasts as long as the object.
 */
import type { TrustStore } from '../../harness/ports.ts';

export class MemoryTrustStore implements TrustStore {
  private readonly trusted = new Map<string, { label: string }>();

  async isTrusted(key: string): Promise<boolean> {
    return this.trusted.has(key);
  }

  async trust(key: string, label: string): Promise<void> {
    this.trusted.set(key, { label });
  }

  async revoke(key: string): Promise<void> {
    this.trusted.delete(key);
  }

  /** What is trusted, for display. */
  list(): { key: string; label: string }[] {
    return [...this.trusted].map(([key, v]) => ({ key, label: v.label }));
  }
}
