/**
 * What teammates say to each other. A message is one JSON line in the recipient's mailbox file;
 * the protocol types (s10) pair a request with its response through `requestId`.
 */

/** The lead's name in every mailbox and message (its agent id stays `main`). */
export const LEAD = 'lead';

export type MessageType =
  | 'message'
  /** lead → teammate: please stop once your current work is done. */
  | 'shutdown_request'
  /** teammate → lead: `approve` true means it stops after this turn. */
  | 'shutdown_response'
  /** teammate → lead: a plan to approve before the teammate changes anything. */
  | 'plan_submission'
  /** lead → teammate: `approve` true means go ahead. */
  | 'plan_response'
  /** the team → the requester: nobody answered `requestId` in time. */
  | 'request_timeout';

export const REQUEST_TYPES = ['shutdown_request', 'plan_submission'] as const;
export const RESPONSE_OF: Record<string, MessageType> = { shutdown_request: 'shutdown_response', plan_submission: 'plan_response' };

export type TeamMessage = {
  id: string;
  from: string;
  to: string;
  type: MessageType;
  /** Set on requests (new id) and on their responses (the request's id). */
  requestId?: string;
  /** A response's answer. */
  approve?: boolean;
  body: string;
  ts: number;
};

export function isRequest(type: MessageType): boolean {
  return (REQUEST_TYPES as readonly string[]).includes(type);
}

export function isResponse(type: MessageType): boolean {
  return type === 'shutdown_response' || type === 'plan_response';
}

/** The text a model reads for one message. */
export function messageLine(m: TeamMessage): string {
  const proto = m.type === 'message' ? '' : ` (${m.type}${m.requestId ? `, request ${m.requestId}` : ''}${m.approve !== undefined ? `, approve: ${m.approve}` : ''})`;
  return `[${m.id}] from ${m.from}${proto}: ${m.body}`;
}

/** Lines of a mailbox file; a line that is not a message is reported, never dropped silently. */
export function parseMailbox(text: string): { messages: TeamMessage[]; problems: string[] } {
  const messages: TeamMessage[] = [];
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      const m = JSON.parse(line) as TeamMessage;
      if (typeof m.id !== 'string' || typeof m.from !== 'string' || typeof m.to !== 'string' || typeof m.body !== 'string') throw new Error('not a message');
      messages.push(m);
    } catch (err) {
      problems.push(`line ${i + 1} is not a message (${err instanceof Error ? err.message : String(err)})`);
    }
  });
  return { messages, problems };
}
