/**
 * The team view from the event stream alone: one lane per agent (the lead, then teammates in
 * spawn order) with its state, current task and unread mail, and every message as an arrow
 * between two lanes at its place in time. Pure, so it is unit-tested and follows Step exactly.
 */
import type { TraceEvent } from '../../harness/index.ts';
import type { teams } from '../../harness/agents/index.ts';

export type Lane = {
  name: string;
  agentId: string;
  state: teams.TeammateState | 'lead';
  taskId?: string;
  unread: number;
  sent: number;
  why?: string;
  /** Spawned to run in another tab (`in_tab`). */
  inTab?: boolean;
  /** The tab it runs in, once one joined (seen from the lead's tab); `here` in the teammate's own tab. */
  tab?: string;
  /** Seen from the lead's tab: nobody joined in time (`join`), or its tab went silent (`lost`). */
  presence?: 'join_timeout' | 'lost';
};
export type Arrow = { id: string; from: string; to: string; type: teams.MessageType; requestId?: string; body: string; at: number };
export type TeamPicture = { lanes: Lane[]; arrows: Arrow[]; timeouts: { requestId: string; from: string; to: string; at: number }[] };

export function deriveTeam(events: readonly TraceEvent[]): TeamPicture | null {
  const lanes = new Map<string, Lane>();
  const arrows: Arrow[] = [];
  const timeouts: TeamPicture['timeouts'] = [];
  const lane = (name: string): Lane => {
    let l = lanes.get(name);
    if (!l) {
      l = { name, agentId: name === 'lead' ? 'main' : `teammate-${name}`, state: name === 'lead' ? 'lead' : 'idle', unread: 0, sent: 0 };
      lanes.set(name, l);
    }
    return l;
  };
  events.forEach((e, i) => {
    switch (e.type) {
      case 'teammate.spawned':
        lane('lead');
        lane(e.name).agentId = e.teammateAgentId;
        if (e.inTab) lane(e.name).inTab = true;
        break;
      case 'teammate.joined': {
        lane('lead');
        const l = lane(e.name);
        l.inTab = true;
        l.tab = e.side === 'lead' ? e.tab : 'here';
        break;
      }
      case 'teammate.join_timeout':
        if (e.side === 'lead') lane(e.name).presence = 'join_timeout';
        break;
      case 'teammate.lost':
        lane(e.name).presence = 'lost';
        break;
      case 'agent.state': {
        const l = lane(e.name);
        l.state = e.to;
        l.why = e.why;
        if (e.taskId) l.taskId = e.taskId;
        else if (e.to !== 'working' && e.to !== 'waiting') delete l.taskId;
        break;
      }
      case 'task.claimed':
        lane(e.owner).taskId = e.taskId;
        break;
      case 'mailbox.sent': {
        const m = e.message;
        if (m.from !== 'team') lane(m.from).sent++;
        lane(m.to).unread = e.unread;
        arrows.push({ id: m.id, from: m.from, to: m.to, type: m.type, ...(m.requestId ? { requestId: m.requestId } : {}), body: m.body, at: i });
        break;
      }
      case 'mailbox.read':
        lane(e.reader).unread = 0;
        break;
      case 'protocol.timeout':
        timeouts.push({ requestId: e.requestId, from: e.from, to: e.to, at: i });
        break;
    }
  });
  if (lanes.size === 0) return null;
  const ordered = [...lanes.values()].sort((a, b) => (a.name === 'lead' ? -1 : b.name === 'lead' ? 1 : 0));
  return { lanes: ordered, arrows, timeouts };
}
