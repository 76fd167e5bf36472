/**
 * After a summary replaced the history, the todo list goes back in (as Claude Code re-attaches
 * it): appended on the user's side of `messages` and reported, when the agent has the todo tool
 * and a list. Both compactions use it — the proactive one before a request, the reactive one
 * after "prompt is too long".
 */
import { todoReattachment } from '../agents/todos/index.ts';
import type { Message, TextBlock } from '../messages.ts';
import type { TraceEvent } from '../trace.ts';
import type { RunEmitter } from './emitter.ts';
import type { LoopState } from './types.ts';

/** Returns the history with the list re-attached, and the block (null when nothing was added). */
export function* reattachTodos(emit: RunEmitter, state: LoopState, hasTodoTool: boolean, messages: Message[]): Generator<TraceEvent, { messages: Message[]; block: TextBlock | null }> {
  const back = todoReattachment(state, hasTodoTool);
  if (!back) return { messages, block: null };
  yield emit.stamp(back.event);
  const u = emit.addUser(messages, [back.block], 'meta');
  yield u.event;
  return { messages: u.messages, block: back.block };
}
