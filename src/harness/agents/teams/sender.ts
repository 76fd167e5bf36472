/**
 * Who may say what on the wire between tabs. A `BroadcastChannel` has no sender identity: every
 * note says which tab it comes from (`tab`) and, for mail, who wrote it (`message.from`), and any
 * same-origin script on the channel could say anything — post mail "from lead", a `bye` in another
 * tab's name, or answer a join before the tab the link was made for. So this tab checks each note
 * (the key on arrival, the speaker when the pump applies it):
 *
 * - **The team's key.** The lead's tab makes a random key per team and puts it in each join link
 *   (`key=`, beside `lead=`, the lead's tab id). When a team is attached with a key, every note
 *   must carry it (`TabLink.post` adds it); a note without it is dropped.
 * - **Names are bound to tabs.** A teammate is bound to the tab the lead welcomed (first come, by
 *   the lead's own invite); a note about it (its mail, state, claim, offer, `bye`) counts only from
 *   that tab. `lead` is bound to the lead's tab: from anywhere else, mail "from lead" or a `bye` as
 *   the lead is dropped. A teammate's tab knows the lead's tab from its link (`lead=`), or else
 *   takes the first tab that speaks as the lead.
 *
 * Dropped notes are shown (`teammate.wire_dropped`), never acted on. What this cannot stop: the key
 * travels in clear on the channel, so a script that already listens there can copy it (see the
 * folder's README, "what the wire does not prove").
 */
import { LEAD } from './message.ts';
import type { TeamWire } from './transport.ts';

/** What `check` needs to know of its team. */
export type SenderView = {
  /** This tab hosts the lead (false: a teammate's tab). */
  hostsLead: boolean;
  /** The tab a member runs in: its tab id, '' while a join is awaited, undefined when it runs here (or is unknown). */
  tabOf(name: string): string | undefined | null;
  /** Whether `name` runs in this tab. */
  isLocal(name: string): boolean;
};

export type SenderOptions = {
  /** The team's key: every note must carry it. */
  key?: string;
  /** A teammate's tab: the lead's tab id (from the join link). */
  leadTab?: string;
};

/** The note's sender is who it says, or why it is not. */
export type SenderVerdict = { ok: true } | { ok: false; why: string };

/** The notes only the lead's tab sends. */
const FROM_LEAD_TAB = new Set(['welcome', 'claimed', 'refused', 'invite']);

/** The member a note speaks for (null: it names none). */
function speaker(w: TeamWire): string | null {
  if (w.kind === 'message') return typeof w.message?.from === 'string' ? w.message.from : '';
  if (w.kind === 'beat' || FROM_LEAD_TAB.has(w.kind)) return null;
  return typeof (w as { name?: unknown }).name === 'string' ? (w as { name: string }).name : '';
}

export class SenderCheck {
  private leadTab: string | undefined;

  constructor(
    private readonly view: SenderView,
    private readonly opts: SenderOptions = {},
  ) {
    this.leadTab = opts.leadTab;
  }

  /** The key this tab's notes carry. */
  get key(): string | undefined {
    return this.opts.key;
  }

  /** On arrival: the note carries the team's key (when the team has one). */
  checkKey(w: TeamWire): SenderVerdict {
    if (this.opts.key !== undefined && w.key !== this.opts.key) {
      return { ok: false, why: w.key === undefined ? 'it carries no team key (only tabs opened from this team’s join link have it)' : 'it carries the wrong team key' };
    }
    return { ok: true };
  }

  /**
   * When the note is applied (the team's members as they are then, not when it arrived — a join
   * and the spawn it answers may both be waiting): whoever it speaks for runs in the tab it came from.
   */
  checkSpeaker(w: TeamWire): SenderVerdict {
    return this.view.hostsLead ? this.checkAtLead(w) : this.checkAtTeammate(w);
  }

  private checkAtLead(w: TeamWire): SenderVerdict {
    if (FROM_LEAD_TAB.has(w.kind)) return { ok: false, why: `only the lead’s tab sends “${w.kind}”, and this is the lead’s tab` };
    const who = speaker(w);
    if (who === null) return { ok: true };
    if (who === '') return { ok: false, why: 'it does not say who sent it' };
    if (who === LEAD || this.view.isLocal(who)) return { ok: false, why: `it speaks as ${who}, who runs in this tab` };
    const bound = this.view.tabOf(who);
    // A join asks for a name the lead is waiting for ('') — first come; any other tab speaking for a bound name is not it.
    if (w.kind === 'hello' && w.join) return bound === '' ? { ok: true } : { ok: false, why: bound ? `${who} already joined from tab ${bound}` : `no teammate ${who} waits for a tab` };
    // A teammate spawned in another tab introduces itself once; after that its name belongs to that tab.
    if (w.kind === 'hello' && (bound === undefined || bound === null)) return { ok: true };
    if (bound !== w.tab) return { ok: false, why: `it speaks as ${who}, who ${bound ? `runs in tab ${bound}` : 'has no tab here'}` };
    return { ok: true };
  }

  private checkAtTeammate(w: TeamWire): SenderVerdict {
    const who = speaker(w);
    const asLead = who === null ? FROM_LEAD_TAB.has(w.kind) : who === LEAD;
    if (asLead) {
      // The lead's tab is known from the link; without one, the first tab to speak as the lead is it.
      this.leadTab ??= w.tab;
      if (w.tab !== this.leadTab) return { ok: false, why: `it speaks as the lead, whose tab is ${this.leadTab}` };
      return { ok: true };
    }
    if (who === null) return { ok: true };
    if (who === '') return { ok: false, why: 'it does not say who sent it' };
    if (this.view.isLocal(who)) return { ok: false, why: `it speaks as ${who}, who runs in this tab` };
    // Mail from the lead's tab may come from its local teammates; from any other tab, from no one else's name.
    return { ok: true };
  }
}

/** The name a note speaks for, when it says one. */
export function speakerName(w: TeamWire): string | undefined {
  const name = w.kind === 'message' ? w.message?.from : (w as { name?: unknown }).name;
  return typeof name === 'string' ? name : undefined;
}
