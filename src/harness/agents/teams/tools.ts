/**
 * The team tools (names as in seed 003 s09/s10): the lead gets `spawn_teammate`, `send_message`
 * and `read_inbox`; each teammate gets `send_message` and `read_inbox`. The lead's `read_inbox`
 * is where teammates move: it drives the team until a message for the lead arrives or nothing
 * can move, forwarding every teammate event into the lead's stream (so Step walks them).
 */
import { z } from 'zod';
import { fail } from '../../tools/shared.ts';
import { buildTool, type AnyTool, type ToolContext } from '../../tools/tool.ts';
import type { TraceEvent, TraceEventBody } from '../../trace.ts';
import { unreadMessages } from './mailbox.ts';
import { LEAD, messageLine } from './message.ts';
import type { Sink, Team, TeamRuntime } from './team.ts';
import { Team as TeamClass } from './team.ts';
import { isolationOf } from './workspace.ts';

function sinkOf(ctx: ToolContext): Sink {
  if (ctx.emit) return ctx.emit;
  return async (e: TraceEvent | TraceEventBody) => {
    if (!('seq' in e)) ctx.report?.(e);
  };
}

const spawnSchema = z.strictObject({
  name: z.string().min(1).max(32).describe('A short lowercase name, e.g. "alice"; it is also the mailbox name.'),
  prompt: z.string().min(1).describe('Its first message: what it is for and what to do first.'),
  auto_claim: z.boolean().optional().describe('Claim ready, unowned tasks from the task board by itself whenever idle.'),
  isolation: z
    .enum(['shared', 'overlay', 'worktree'])
    .optional()
    .describe('Where it works: the shared files (default), or its own isolated copy (overlay; worktree means the same) whose changes are merged back when it finishes; overlapping changes are refused as conflicts.'),
  in_tab: z
    .boolean()
    .optional()
    .describe('Run it in another browser tab: a second tab joins as it and runs its loop there, on its own copy of the files (merged back when it finishes). Its mail and claims cross between the tabs.'),
});

export function spawnTeammateTool(team: Team) {
  return buildTool<z.infer<typeof spawnSchema>>({
    name: 'spawn_teammate',
    description:
      'Starts a long-lived teammate: its own conversation, tools and permissions, on the same files (or, with isolation overlay, on its own copy merged back when it finishes). Unlike a subagent it stays after its first answer: it idles between messages and wakes when mail arrives (or, with auto_claim, when a task on the board is ready). It moves while you wait in read_inbox.',
    inputSchema: spawnSchema,
    // Starting a teammate changes no file of the user's; each of its calls is judged on its own.
    isReadOnly: () => true,
    async call(input, ctx) {
      const r = await team.spawn({ name: input.name, prompt: input.prompt, ...(input.auto_claim !== undefined ? { autoClaim: input.auto_claim } : {}), ...(input.isolation ? { isolation: isolationOf(input.isolation)! } : {}), ...(input.in_tab ? { inTab: true } : {}) }, sinkOf(ctx));
      if (!r.ok) return fail(r.message);
      if (input.in_tab && r.teammate.remoteTab === '') return { content: `Spawned ${input.name} to run in another tab; it starts when a tab joins as it (your prompt is in its mailbox). Wait for its messages with read_inbox. Team: ${team.summary()}` };
      if (input.in_tab) return { content: `No other tab can join this run, so ${input.name} runs here, in its own ${r.teammate.isolation === 'overlay' ? 'isolated copy of the files' : 'view of the shared files'} (${r.teammate.agentId}); your prompt is in its mailbox. Wait for its messages with read_inbox. Team: ${team.summary()}` };
      return { content: `Spawned ${input.name} (${r.teammate.agentId}); your prompt is in its mailbox. Wait for its messages with read_inbox. Team: ${team.summary()}` };
    },
  });
}

const sendSchema = z.strictObject({
  to: z.string().min(1).describe(`The recipient: a teammate's name, or "${LEAD}".`),
  body: z.string().min(1).max(20_000),
  type: z
    .enum(['message', 'shutdown_request', 'shutdown_response', 'plan_submission', 'plan_response'])
    .optional()
    .describe('message (default); requests: shutdown_request (lead → teammate), plan_submission (teammate → lead); responses need request_id and approve.'),
  request_id: z.string().min(1).optional().describe('For a response: the id of the request it answers.'),
  approve: z.boolean().optional().describe('For a response: the answer.'),
});

export function sendMessageTool(team: Team, self: string) {
  return buildTool<z.infer<typeof sendSchema>>({
    name: 'send_message',
    description: `Appends a message to a team member's mailbox (.team/inbox/<name>.jsonl). Requests get an id back; the answer quotes it. An unanswered request times out and you are told. While you wait for an answer you cannot send another request.`,
    inputSchema: sendSchema,
    // Bookkeeping in .team/ only, like the task tools.
    isReadOnly: () => true,
    async call(input, ctx) {
      const r = await team.send(
        { from: self, to: input.to, type: input.type ?? 'message', body: input.body, ...(input.request_id ? { requestId: input.request_id } : {}), ...(input.approve !== undefined ? { approve: input.approve } : {}) },
        sinkOf(ctx),
      );
      if (!r.ok) return fail(`Not sent: ${r.message}`);
      const m = r.message;
      return { content: `Sent ${m.id} to ${m.to}${m.type !== 'message' ? ` (${m.type}${m.requestId ? `, request ${m.requestId}` : ''})` : ''}.` };
    },
  });
}

export function readInboxTool(team: Team, self: string) {
  const lead = self === LEAD;
  return buildTool<Record<string, never>>({
    name: 'read_inbox',
    description: lead
      ? 'Waits for your teammates and returns the messages sent to you. While you wait, the teammates work (each event shows in the trace); it returns as soon as a message for you arrives, or when no teammate can do anything more.'
      : 'Returns the unread messages in your mailbox (new mail also wakes you when your turn has ended).',
    inputSchema: z.strictObject({}),
    isReadOnly: () => true,
    async call(_input, ctx) {
      const sink = sinkOf(ctx);
      let outcome: 'until' | 'quiet' | 'aborted' | 'now' = 'now';
      if (lead) {
        const fs = ctx.sandbox.fs;
        outcome = await team.pump(sink, async () => (await unreadMessages(fs, ctx.sandbox.workdir, LEAD)).length > 0, ctx.signal);
      }
      if (outcome === 'aborted') return fail('Stopped while waiting for teammates.');
      const messages = await team.read(self, sink);
      const status = `Team: ${team.summary()}`;
      if (messages.length === 0) return { content: `No new messages. ${lead && outcome === 'quiet' ? 'No teammate can do anything more until you send a message. ' : ''}${status}` };
      return { content: `${messages.map(messageLine).join('\n')}\n\n${status}` };
    },
  });
}

/** A team for one run and the lead's tools over it; teammates get theirs through the runtime. */
export function teamTools(runtime: TeamRuntime): { team: Team; tools: AnyTool[] } {
  const team = new TeamClass({ ...runtime, teammateTools: (t, name) => [sendMessageTool(t, name), readInboxTool(t, name)] });
  return { team, tools: [spawnTeammateTool(team), sendMessageTool(team, LEAD), readInboxTool(team, LEAD)] };
}
