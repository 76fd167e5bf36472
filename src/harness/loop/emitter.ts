/**
 * How the loop speaks: every event gets its `seq`, clock time, agent id and turn here, and the
 * history edits that must be reported (`message.appended`) are made and announced in one step.
 */
import type { ContentBlock, Message } from '../messages.ts';
import type { Clock, ModelError } from '../ports.ts';
import type { ExitReason, MessageOrigin, TraceEvent, TraceEventBody, TransitionReason } from '../trace.ts';
import { withUserContent } from './history.ts';
import type { LoopState, RunResult } from './types.ts';

export class RunEmitter {
  private seq = 0;
  /** The turn stamped on events; the loop moves it when a model call starts. */
  turn = 0;
  /** Events to report just before every exit (the agents site: background jobs the end stops). */
  beforeExit: ((reason: ExitReason) => TraceEventBody[]) | null = null;
  /** Hooks of the run's end (StopFailure, SessionEnd: `end-hooks.ts`), fired after `beforeExit`. */
  endHooks: ((reason: ExitReason, messages: Message[], error?: ModelError) => AsyncGenerator<TraceEventBody>) | null = null;

  constructor(
    private readonly clock: Clock,
    readonly agentId: string,
    /** Set for a subagent: the parent's call that started it, stamped on every event. */
    private readonly parentToolUseId?: string,
  ) {}

  stamp(body: TraceEventBody): TraceEvent {
    const parent = this.parentToolUseId ? { parentToolUseId: this.parentToolUseId } : {};
    return { ...body, seq: ++this.seq, ts: this.clock.now(), agentId: this.agentId, turn: this.turn, ...parent } as TraceEvent;
  }

  /** An event a nested agent already stamped (another agent id): it passes through unchanged. */
  isForeign(e: TraceEventBody | TraceEvent): e is TraceEvent {
    return 'agentId' in e && typeof e.agentId === 'string' && e.agentId !== this.agentId;
  }

  /** Appends a message to the history and reports it. */
  append(messages: Message[], message: Message, origin: MessageOrigin): { messages: Message[]; event: TraceEvent } {
    const next = [...messages, message];
    return { messages: next, event: this.stamp({ type: 'message.appended', origin, message, index: next.length - 1 }) };
  }

  /** Adds content on the user's side (merged into the last message when it is the user's) and reports it. */
  addUser(messages: Message[], content: ContentBlock[], origin: MessageOrigin): { messages: Message[]; event: TraceEvent } {
    const next = withUserContent(messages, content);
    const index = next.length - 1;
    return { messages: next, event: this.stamp({ type: 'message.appended', origin, message: next[index]!, index }) };
  }

  /** A continue site's transition event. */
  next(reason: TransitionReason, detail?: string): TraceEvent {
    return this.stamp({ type: 'transition', reason, ...(detail ? { detail } : {}) });
  }

  /** Every exit: its transition, `run.end`, and the result. */
  async *exit(reason: ExitReason, s: LoopState, error?: ModelError, detail?: string): AsyncGenerator<TraceEvent, RunResult> {
    for (const body of this.beforeExit?.(reason) ?? []) yield this.stamp(body);
    if (this.endHooks) for await (const body of this.endHooks(reason, s.messages, error)) yield this.stamp(body);
    yield this.stamp({ type: 'transition', reason, ...(detail ? { detail } : {}) });
    yield this.stamp({ type: 'run.end', reason, turns: s.turn, usage: s.usage, ...(error ? { error } : {}) });
    return { reason, messages: s.messages, turns: s.turn, usage: s.usage, contextState: s.context, ...(error ? { error } : {}) };
  }

  /** Re-stamps a sub-generator's events (tools, hooks, context layers) and returns its result. */
  async *pass<T>(gen: AsyncGenerator<TraceEventBody | TraceEvent, T>): AsyncGenerator<TraceEvent, T> {
    let step = await gen.next();
    while (!step.done) {
      yield this.isForeign(step.value) ? step.value : this.stamp(step.value);
      step = await gen.next();
    }
    return step.value;
  }
}
