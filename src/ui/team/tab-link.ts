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

// The link itself (parse, build) lives in `teammate-link.ts`, which the page's entry imports alone.
export { teammateLinkOf, teammateLinkUrl, type TeammateLink } from './teammate-link.ts';
import type { TeammateLink } from './teammate-link.ts';

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
