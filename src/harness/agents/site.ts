/**
 * The loop's agents call site. Three moments, each one line in `agent-loop.ts`:
 *
 * - run start: `skills.available` — what the model sees of each skill;
 * - the safe point (after the tool results, before the next model call): finished background
 *   jobs and queued steering messages go into the history as user-side text, each with its event;
 * - the stop site: the model stopped, but a steering message is queued or a background job is
 *   finished or still running — the loop waits for the job, then continues
 *   (`steering_message` / `background_notification`) instead of ending the run;
 * - after an auto-compact: skills loaded earlier are re-attached after the summary.
 */
import type { PreparedContext } from '../context/pipeline.ts';
import { estimateTextTokens } from '../context/tokens.ts';
import type { ContentBlock, Message, ToolResultBlock } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { withUserContent } from '../loop/history.ts';
import type { RunEmitter } from '../loop/emitter.ts';
import type { Clock, Sandbox } from '../ports.ts';
import type { TraceEvent } from '../trace.ts';
import { BackgroundJobs } from './background/jobs.ts';
import { notificationText } from './background/notification.ts';
import type { SkillCatalog } from './skills/catalog.ts';
import { skillBodyText, skillListing } from './skills/skill-tool.ts';
import { steeringText, type SteeringInbox, type SteeringMessage } from './steering/inbox.ts';

export type AgentsSiteOptions = {
  sandbox: Sandbox;
  clock: Clock;
  signal: AbortSignal;
  emit: RunEmitter;
  steering?: SteeringInbox;
  skills?: SkillCatalog;
};

export type Continuation = 'steering_message' | 'background_notification';

export function createAgentsSite(opts: AgentsSiteOptions) {
  const { emit } = opts;
  const background = new BackgroundJobs(opts.sandbox, opts.clock, opts.signal);
  // A run never leaves a job behind; the ones its end stops are reported before it exits.
  emit.beforeExit = (reason) => {
    const jobs = background.stopForRunEnd();
    if (jobs.length === 0) return [];
    return [{ type: 'background.stopped', reason, jobs: jobs.map((j) => ({ id: j.id, command: j.command, ms: (j.endedAt ?? j.startedAt) - j.startedAt })) }];
  };
  /** Steering messages taken at the stop site, delivered at the next safe point. */
  let carried: SteeringMessage[] = [];

  function* start(): Generator<TraceEvent> {
    const catalog = opts.skills;
    if (!catalog || (catalog.skills.length === 0 && catalog.problems.length === 0)) return;
    yield emit.stamp({
      type: 'skills.available',
      skills: catalog.skills.map((s) => ({
        name: s.name,
        description: s.description,
        origin: s.origin,
        path: s.path,
        descriptionTokens: estimateTextTokens(`- ${s.name}: ${s.description}`),
        bodyTokens: estimateTextTokens(skillBodyText(s)),
        allowedTools: s.allowedTools,
        files: s.files,
      })),
      problems: catalog.problems,
      tokens: estimateTextTokens(skillListing(catalog)),
    });
  }

  /** The safe point before model call `beforeTurn`: notifications first, then the person's words. */
  function* deliver(messages: Message[], beforeTurn: number): Generator<TraceEvent, Message[]> {
    let msgs = messages;
    const finished = background.takeFinished();
    if (finished.length > 0) {
      const blocks: ContentBlock[] = [];
      for (const job of finished) {
        const text = notificationText(job);
        yield emit.stamp({
          type: 'background.notification',
          jobId: job.id,
          command: job.command,
          status: job.status,
          ...(job.exitCode !== undefined ? { exitCode: job.exitCode } : {}),
          ms: (job.endedAt ?? job.startedAt) - job.startedAt,
          text,
        });
        blocks.push({ type: 'text', text });
      }
      const u = emit.addUser(msgs, blocks, 'meta');
      msgs = u.messages;
      yield u.event;
    }
    const steers = [...carried, ...(opts.steering?.take(beforeTurn) ?? [])];
    carried = [];
    if (steers.length > 0) {
      for (const m of steers) yield emit.stamp({ type: 'interrupt.received', text: m.text, source: m.source, beforeTurn });
      const u = emit.addUser(msgs, steers.map((m) => ({ type: 'text' as const, text: steeringText(m) })), 'user');
      msgs = u.messages;
      yield u.event;
    }
    return msgs;
  }

  /**
   * The model stopped. Keep going when a steering message is queued, or when a background job
   * has finished or is still running (then wait for it: its result is what the model stopped for).
   */
  async function atStop(beforeTurn: number): Promise<{ reason: Continuation; detail: string } | null> {
    carried = [...carried, ...(opts.steering?.take(beforeTurn) ?? [])];
    if (carried.length > 0) return { reason: 'steering_message', detail: `${carried.length} message(s) typed while the agent worked` };
    let running = background.running();
    if (!background.hasUndelivered() && running.length > 0) {
      await background.waitForAny(opts.signal);
      running = background.running();
    }
    if (opts.signal.aborted || !background.hasUndelivered()) return null;
    const left = running.length > 0 ? `; ${running.length} still running` : '';
    return { reason: 'background_notification', detail: `a background job finished${left}` };
  }

  /** After an auto-compact: the skills the summarised history had loaded go back in after the summary. */
  function* reattach(before: Message[], prep: PreparedContext): Generator<TraceEvent, PreparedContext> {
    if (!prep.compaction || !prep.committed || !opts.skills) return prep;
    const names = loadedSkillNames(before);
    const skills = opts.skills.skills.filter((s) => names.includes(s.name));
    if (skills.length === 0) return prep;
    const text = `Skills you loaded earlier in this conversation, re-attached after the summary:\n\n${skills.map(skillBodyText).join('\n\n')}`;
    const block: ContentBlock = { type: 'text', text };
    for (const s of skills) {
      const body = skillBodyText(s);
      yield emit.stamp({
        type: 'skill.loaded',
        name: s.name,
        origin: s.origin,
        path: s.path,
        via: 'reattach',
        description: s.description,
        descriptionTokens: estimateTextTokens(`- ${s.name}: ${s.description}`),
        body: s.body,
        bodyTokens: estimateTextTokens(body),
        files: s.files,
        allowedTools: s.allowedTools,
        granted: [],
      });
    }
    const committed = withUserContent(prep.committed, [block]);
    yield emit.stamp({ type: 'message.appended', origin: 'meta', message: committed[committed.length - 1]!, index: committed.length - 1 });
    return { ...prep, committed, request: { ...prep.request, messages: withUserContent(prep.request.messages, [block]) } };
  }

  return { background, start, deliver, atStop, reattach };
}

export type AgentsSite = ReturnType<typeof createAgentsSite>;

const REATTACHED = /<skill name="([a-z0-9][a-z0-9-]*)">/g;

/** Skills loaded in `messages`: successful `skill` calls, and skills an earlier compaction re-attached. */
export function loadedSkillNames(messages: readonly Message[]): string[] {
  const names: string[] = [];
  const add = (n: string) => {
    if (!names.includes(n)) names.push(n);
  };
  const okResults = new Set<string>();
  for (const m of messages) for (const b of blocksOf(m)) if (b.type === 'tool_result' && !(b as ToolResultBlock).is_error) okResults.add(b.tool_use_id);
  for (const m of messages) {
    for (const b of blocksOf(m)) {
      if (b.type === 'tool_use' && b.name === 'skill' && okResults.has(b.id)) {
        const n = (b.input as { skill?: unknown }).skill;
        if (typeof n === 'string') add(n);
      }
      if (m.role === 'user' && b.type === 'text' && b.text.startsWith('Skills you loaded earlier')) for (const x of b.text.matchAll(REATTACHED)) add(x[1]!);
    }
  }
  return names;
}
