/**
 * Presence across tabs (issue 13 §4): two deadlines on the Clock, so a teammate in another tab
 * never makes the lead wait for ever.
 *
 * - **Joining**: a teammate spawned `in_tab` waits for a tab to join as it for `joinTimeoutMs`
 *   (default 2 min: time to open the link and for the tab to boot). Past it, it is `gone`, the
 *   lead gets a message from `team` (its `read_inbox` wakes), and a tab that asks later is refused.
 * - **Heartbeats**: every tab with a transport posts `beat` every `heartbeatMs` of its Clock. The
 *   lead's tab remembers when it last heard from each tab (any note counts) and the interval its
 *   beats announce; a joined teammate whose tab was silent for `missedBeats` intervals is lost —
 *   `gone`, like a `bye`, with the same release of its tasks after `releaseAfterMs`. A tab that has
 *   never beaten is not watched (it may be an older build): only a `bye` ends it.
 *
 * Pure bookkeeping here; the `Team` acts on it while it is pumped.
 */

/** How long an `in_tab` teammate waits for a tab to join as it. */
export const DEFAULT_JOIN_TIMEOUT_MS = 120_000;
/** How often a tab says it is alive. */
export const DEFAULT_HEARTBEAT_MS = 2_000;
/** Beats a tab may miss before its teammate is lost (background tabs' timers may be slowed to once a second). */
export const DEFAULT_MISSED_BEATS = 5;

export type Heard = { at: number; everyMs?: number };

export class Presence {
  private readonly heard = new Map<string, Heard>();

  constructor(private readonly missedBeats: number) {}

  /** A note from `tab` arrived at `now` (a beat also tells how often it beats). */
  note(tab: string, now: number, everyMs?: number): void {
    const before = this.heard.get(tab);
    const every = everyMs !== undefined && Number.isFinite(everyMs) && everyMs > 0 ? everyMs : before?.everyMs;
    this.heard.set(tab, { at: now, ...(every !== undefined ? { everyMs: every } : {}) });
  }

  /** When `tab` counts as lost, or undefined while it is not watched (it never beat). */
  deadline(tab: string): number | undefined {
    const h = this.heard.get(tab);
    return h?.everyMs === undefined ? undefined : h.at + h.everyMs * this.missedBeats;
  }

  /** How long `tab` has been silent and at what interval it beat. */
  silence(tab: string, now: number): { silentMs: number; everyMs: number; missedBeats: number } {
    const h = this.heard.get(tab);
    return { silentMs: h ? now - h.at : 0, everyMs: h?.everyMs ?? 0, missedBeats: this.missedBeats };
  }
}
