/**
 * Records read back from storage that failed validation: kept out of the app (a list shows the
 * good ones, a log stops at the bad entry) and listed here so the page can say which record is
 * damaged, what is wrong, and offer its raw content for export. Nothing is deleted: the user
 * decides, after exporting.
 */

export type QuarantinedRecord = {
  /** The store it was read from: `sessions`, `session_events`, `memories`, `localStorage`, `jsonl`. */
  store: string;
  /** Its key there (a session id, `session/seq`, a memory id, a localStorage key). */
  key: string;
  /** The session it belongs to, when it does. */
  sessionId?: string;
  /** What is wrong, in words. */
  problem: string;
  /** The record as stored, as text (for "export raw"). */
  raw: string;
};

/** Text of any stored value, for export; never throws (a value JSON cannot write is described instead). */
export function rawText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch (e) {
    return `(this record cannot be written as JSON: ${e instanceof Error ? e.message : String(e)})`;
  }
}

export class Quarantine {
  private readonly byKey = new Map<string, QuarantinedRecord>();
  private readonly listeners = new Set<(records: QuarantinedRecord[]) => void>();

  /** Adds (or refreshes) a record; listeners hear the new list. */
  add(record: QuarantinedRecord): void {
    this.byKey.set(`${record.store}\u0000${record.key}`, record);
    this.emit();
  }

  list(): QuarantinedRecord[] {
    return [...this.byKey.values()];
  }

  /** Forget one (dismissed, or exported and dealt with). */
  dismiss(record: QuarantinedRecord): void {
    this.byKey.delete(`${record.store}\u0000${record.key}`);
    this.emit();
  }

  /** Hear every change; returns the unsubscribe function. */
  subscribe(listener: (records: QuarantinedRecord[]) => void): () => void {
    this.listeners.add(listener);
    listener(this.list());
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    const records = this.list();
    for (const l of this.listeners) l(records);
  }
}

/** The page's one quarantine, shared by its stores and shown by the sessions banner. */
export const pageQuarantine = new Quarantine();
