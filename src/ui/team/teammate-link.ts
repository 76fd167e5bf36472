/**
 * The link a second tab opens to join another tab's team as one teammate
 * (`?teammate=<name>&team=<channel>&scenario=<id>&lead=<tab>&key=<key>`): parsed and built here,
 * apart from the tab channel (`tab-link.ts`, which brings the team runtime), so the page's entry
 * (`main.ts`) can tell a teammate tab from the playground without loading the team code.
 */
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
