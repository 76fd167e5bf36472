/**
 * Mail and the protocol (s10): `sendMessage` checks a message against the rules (one open request
 * per sender, responses answer the request they name, nobody writes to a finished teammate),
 * appends it under the mailbox lock and tells the other tabs; `record` keeps the open requests;
 * `readMail` takes an agent's unread mail; `notify` is a message from the team itself.
 */
import { appendMessage, inboxPath, takeUnread } from './mailbox.ts';
import { isRequest, LEAD, RESPONSE_OF, type MessageType, type TeamMessage } from './message.ts';
import { isFinal } from './state.ts';
import type { Team } from './team.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, type OpenRequest, type Sink } from './team-types.ts';

type Outgoing = { from: string; to: string; type: MessageType; body: string; requestId?: string; approve?: boolean };

export async function sendMessage(team: Team, msg: Outgoing, sink: Sink, senderAgentId?: string): Promise<{ ok: true; message: TeamMessage } | { ok: false; message: string }> {
  const problem = protocolProblem(team, msg);
  if (problem) return { ok: false, message: problem };
  const now = team.runtime.clock.now();
  const requestId = isRequest(msg.type) ? team.nextId('req') : msg.requestId;
  const message: TeamMessage = {
    id: team.nextId('msg'),
    from: msg.from,
    to: msg.to,
    type: msg.type,
    ...(requestId ? { requestId } : {}),
    ...(msg.approve !== undefined ? { approve: msg.approve } : {}),
    body: msg.body,
    ts: now,
  };
  const sent = await appendMessage(team.runtime.sandbox.fs, team.workdir, message, team.lockOptions(msg.from, sink, senderAgentId));
  team.stats.lockWaits += sent.waits;
  team.stats.messages++;
  record(team, message, true);
  team.link.post({ kind: 'message', message });
  await sink(team.stampFor(senderAgentId, { type: 'mailbox.sent', message, path: sent.path.slice(team.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread, ...(sent.problems.length ? { problems: sent.problems } : {}) }));
  return { ok: true, message };
}

/** The protocol's bookkeeping for a message sent here or arrived from another tab (whose sender owns the timeout). */
export function record(team: Team, message: TeamMessage, ownsTimeout: boolean): void {
  const now = team.runtime.clock.now();
  if (isRequest(message.type) && message.requestId) {
    const deadline = ownsTimeout ? now + (team.runtime.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS) : Number.POSITIVE_INFINITY;
    team.requests.set(message.requestId, { id: message.requestId, type: message.type as OpenRequest['type'], from: message.from, to: message.to, sentAt: now, deadline });
  } else if (message.requestId && message.type !== 'request_timeout') {
    team.requests.delete(message.requestId);
    if (message.type === 'shutdown_response' && message.approve) {
      const m = team.members.get(message.from);
      if (m) m.stopping = true;
    }
  } else if (message.requestId) {
    team.requests.delete(message.requestId);
  }
}

function protocolProblem(team: Team, msg: Omit<Outgoing, 'body'>): string | null {
  if (!team.isMember(msg.to)) return `There is no teammate ${msg.to}. The team: ${[LEAD, ...team.members.keys()].join(', ')}.`;
  if (msg.to === msg.from) return 'You cannot send a message to yourself.';
  const target = team.members.get(msg.to);
  if (target && isFinal(target.state)) return `${msg.to} has ${target.state === 'gone' ? 'gone' : 'shut down'}; it reads no more messages.`;
  if (msg.type === 'request_timeout') return 'request_timeout messages come from the team, not from an agent.';
  if (msg.type === 'shutdown_request' && msg.from !== LEAD) return `Only ${LEAD} asks a teammate to shut down.`;
  if (msg.type === 'plan_submission' && msg.to !== LEAD) return `Plans go to ${LEAD} for approval.`;
  if (isRequest(msg.type)) {
    // s10: an agent waiting for an answer sends no second request (the lead: none to the same teammate).
    const open = [...team.requests.values()].find((r) => r.from === msg.from && (msg.from !== LEAD || r.to === msg.to));
    if (open) return `You are still waiting for the answer to ${open.id} (${open.type} to ${open.to}); wait for it (read_inbox) before sending another request.`;
    return null;
  }
  if (msg.type === 'shutdown_response' || msg.type === 'plan_response') {
    if (!msg.requestId) return `A ${msg.type} needs request_id: the id of the request it answers.`;
    if (msg.approve === undefined) return `A ${msg.type} needs approve: true or false.`;
    const req = team.requests.get(msg.requestId);
    if (!req) return `There is no open request ${msg.requestId} (it was answered, timed out, or never sent).`;
    if (req.to !== msg.from || req.from !== msg.to || RESPONSE_OF[req.type] !== msg.type) return `${msg.requestId} is a ${req.type} from ${req.from} to ${req.to}; it is answered by ${req.to} with a ${RESPONSE_OF[req.type]} to ${req.from}.`;
  }
  return null;
}

/** Takes an agent's unread mail (cursor moves) and reports it. */
export async function readMail(team: Team, name: string, sink: Sink, agentId?: string): Promise<TeamMessage[]> {
  const { messages, waits, problems } = await takeUnread(team.runtime.sandbox.fs, team.workdir, name, team.lockOptions(name, sink, agentId));
  team.stats.lockWaits += waits;
  // The other tabs keep a copy of this mailbox: they move their cursor too (unread counts agree).
  if (messages.length > 0) team.link.post({ kind: 'read', name, ids: messages.map((x) => x.id) });
  if (messages.length > 0 || problems.length > 0) {
    await sink(team.stampFor(agentId, { type: 'mailbox.read', reader: name, messages, path: inboxPath(team.workdir, name).slice(team.workdir.length + 1), problems }));
  }
  return messages;
}

/** A message from the team itself (not from an agent), as `request_timeout` is. */
export async function notify(team: Team, to: string, body: string, sink: Sink): Promise<void> {
  const message: TeamMessage = { id: team.nextId('msg'), from: 'team', to, type: 'message', body, ts: team.runtime.clock.now() };
  const sent = await appendMessage(team.runtime.sandbox.fs, team.workdir, message, team.lockOptions('team', sink));
  team.stats.lockWaits += sent.waits;
  team.stats.messages++;
  team.link.post({ kind: 'message', message });
  await sink({ type: 'mailbox.sent', message, path: sent.path.slice(team.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread, ...(sent.problems.length ? { problems: sent.problems } : {}) });
}

/** A request past its deadline: the requester gets a `request_timeout` message from the team. */
export async function timeOut(team: Team, r: OpenRequest, now: number, sink: Sink): Promise<void> {
  team.requests.delete(r.id);
  const from = team.members.get(r.from);
  await sink(team.stampFor(from?.agentId, { type: 'protocol.timeout', requestId: r.id, request: r.type, from: r.from, to: r.to, waitedMs: now - r.sentAt }));
  const message: TeamMessage = { id: team.nextId('msg'), from: 'team', to: r.from, type: 'request_timeout', requestId: r.id, body: `Nobody answered ${r.id} (${r.type} to ${r.to}) within ${now - r.sentAt} ms. Decide without the answer.`, ts: now };
  const sent = await appendMessage(team.runtime.sandbox.fs, team.workdir, message, team.lockOptions('team', sink));
  await sink(team.stampFor(from?.agentId, { type: 'mailbox.sent', message, path: sent.path.slice(team.workdir.length + 1), lockWaits: sent.waits, unread: sent.unread, ...(sent.problems.length ? { problems: sent.problems } : {}) }));
}
