/**
 * This tab's end of the wire between tabs: the transport once attached, the notes that arrived
 * and wait for the pump, and the heartbeat. It knows nothing of teammates; the team decides what
 * a note means (`wire.ts`, `lead-side.ts`, `teammate-side.ts`).
 */
import type { Clock } from '../../ports.ts';
import type { TeamTransport, TeamWire } from './transport.ts';

/** A note as the team writes it; `post` adds this tab's id. */
type Note = TeamWire extends infer W ? (W extends { tab: string } ? Omit<W, 'tab' | 'key'> : never) : never;

/** A note this tab refused (`sender.ts`), waiting to be shown by the pump. */
export type DroppedNote = { tab: string; kind: string; name?: string; why: string };

export class TabLink {
  wire?: { transport: TeamTransport; tab: string; key?: string; off: () => void };
  /** Notes from other tabs not yet applied (the pump applies them in order). */
  readonly inbound: TeamWire[] = [];
  /** Notes refused on arrival, not yet shown (the pump shows them). */
  readonly dropped: DroppedNote[] = [];
  private onInbound?: () => void;
  private beating?: AbortController;

  /** This tab's id on the wire, when connected. */
  get tab(): string | undefined {
    return this.wire?.tab;
  }

  /** Listens on `transport`; `accept` sees each note first and says whether it waits for the pump. `key` goes on every note posted. */
  attach(transport: TeamTransport, tab: string, accept: (w: TeamWire) => boolean, key?: string): void {
    const off = transport.listen((w) => {
      if (!accept(w)) return;
      this.inbound.push(w);
      this.onInbound?.();
    });
    this.wire = { transport, tab, ...(key !== undefined ? { key } : {}), off };
  }

  /** Records a refused note for the pump to show, and wakes it. */
  drop(note: DroppedNote): void {
    this.dropped.push(note);
    this.onInbound?.();
  }

  /** Posts `note` from this tab; nothing when no transport is attached. */
  post(note: Note): void {
    if (!this.wire) return;
    const { kind, ...rest } = note;
    const key = this.wire.key !== undefined ? { key: this.wire.key } : {};
    this.wire.transport.post({ kind, tab: this.wire.tab, ...key, ...rest } as TeamWire);
  }

  /** Posts `beat` now and every `everyMs` of the Clock until the transport is detached (a crash stops it with the page). */
  beat(everyMs: number, clock: Clock): void {
    const stop = new AbortController();
    this.beating = stop;
    void (async () => {
      while (this.wire && !stop.signal.aborted) {
        this.post({ kind: 'beat', everyMs });
        try {
          await clock.sleep(everyMs, stop.signal);
        } catch {
          return;
        }
      }
    })();
  }

  /** Stops the heartbeat and disconnects. */
  detach(): void {
    if (!this.wire) return;
    this.beating?.abort();
    this.wire.off();
    this.wire.transport.close();
    delete this.wire;
  }

  /** Resolves when a note from another tab is waiting (or `signal` fires). */
  waitForWire(signal?: AbortSignal): Promise<void> {
    if (this.inbound.length > 0 || this.dropped.length > 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        delete this.onInbound;
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.onInbound = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
