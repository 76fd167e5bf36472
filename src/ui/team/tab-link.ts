/**
 * Teammates in other tabs, the page's side. The lead's tab puts a run's team on a
 * `BroadcastChannel` of its own (one per run, so two runs in two tabs never mix) and offers a
 * link per `in_tab` teammate; the second tab opens that link (`?teammate=<name>&team=<channel>&scenario=<id>`)
 * and joins as that teammate. The link also carries the lead's tab id (`lead=`) and the team's random
 * key (`key=`): every note on the channel carries the key, and each side checks who a note speaks for
 * (`harness/agents/teams/sender.ts`), so a tab without the link cannot post as the lead or take a join.
 * `pagehide` says `bye` (and, from the lead's tab, ends the team for
 * the others): a closed tab is a gone teammate.
 *
 * Only built-in scenarios can be joined: the second tab reads the teammate's script and settings
 * from its own copy of the app, never from the link.
 */
import type { Team } from '../../harness/agents/index.ts';
import { broadcastTransport } from '../../team-transport/broadcast.ts';

export type TeammateLink = { name: string; channel: string; scenario: string; lead: string; key: string };

const NAME = /^[a-z][a-z0-9-]{0,31}$/;
const CHANNEL = /^hp-team-[a-z0-9]{6,32}$/;
const SCENARIO = /^[a-z0-9][a-z0-9-]{0,80}$/;
const TAB = /^tab-[a-z0-9]{6,32}$/;
const KEY = /^[a-z0-9]{24,64}$/;

/** The teammate a second tab was opened to be, or null (a malformed link is no link). */
export function teammateLinkOf(search: string): TeammateLink | null {
  const q = new URLSearchParams(search);
  const name = q.get('teammate') ?? '';
  const channel = q.get('team') ?? '';
  const scenario = q.get('scenario') ?? '';
  const lead = q.get('lead') ?? '';
  const key = q.get('key') ?? '';
  if (!NAME.test(name) || !CHANNEL.test(channel) || !SCENARIO.test(scenario) || !TAB.test(lead) || !KEY.test(key)) return null;
  return { name, channel, scenario, lead, key };
}

export function teammateLinkUrl(base: { origin: string; pathname: string }, link: TeammateLink): string {
  const q = new URLSearchParams({ teammate: link.name, team: link.channel, scenario: link.scenario, lead: link.lead, key: link.key });
  return `${base.origin}${base.pathname}?${q.toString()}`;
}

const randomPart = () => Array.from(crypto.getRandomValues(new Uint8Array(6)), (b) => (b % 36).toString(36)).join('');

/**
 * A team on a tab channel, said goodbye to on `pagehide` (or `close`). The lead's tab makes the
 * channel and the key; a teammate's tab takes both, and the lead's tab id, from its link.
 */
export class TabChannel {
  readonly channel: string;
  readonly key: string;
  readonly tab = `tab-${randomPart()}`;
  private readonly onPageHide = () => this.close();

  constructor(
    private readonly team: Team,
    joining?: Pick<TeammateLink, 'channel' | 'lead' | 'key'>,
  ) {
    this.channel = joining?.channel ?? `hp-team-${randomPart()}${randomPart()}`;
    this.key = joining?.key ?? `${randomPart()}${randomPart()}${randomPart()}${randomPart()}`;
    team.attachTransport(broadcastTransport(this.channel), this.tab, { key: this.key, ...(joining ? { leadTab: joining.lead } : {}) });
    addEventListener('pagehide', this.onPageHide);
  }

  close(): void {
    removeEventListener('pagehide', this.onPageHide);
    this.team.detachTransport();
  }
}

/** Whether this browser can connect tabs at all. */
export const tabsAvailable = () => typeof BroadcastChannel !== 'undefined';
