/**
 * The loop's background-hook call site (`async` / `asyncRewake` command hooks, `hooks/async-hooks.ts`):
 *
 * - at each safe point before a model call, finished background hooks report (`hook.run` with
 *   `background`) and what they say for the model joins the history as one meta message;
 * - at the stop site, when `asyncRewake` hooks are still running the loop waits for them, and
 *   one that exited 2 wakes the agent (`async_hook_rewake`) instead of letting the run complete.
 */
import type { AsyncHookInbox } from '../hooks/index.ts';
import type { ContentBlock, Message } from '../messages.ts';
import type { TraceEvent } from '../trace.ts';
import type { RunEmitter } from './emitter.ts';

export function createAsyncHookSite(inbox: AsyncHookInbox | undefined, emit: RunEmitter, signal: AbortSignal) {
  function* deliver(messages: Message[]): Generator<TraceEvent, Message[]> {
    if (!inbox) return messages;
    const finished = inbox.take();
    const blocks: ContentBlock[] = [];
    for (const f of finished) {
      yield emit.stamp(f.trace);
      if (f.text) blocks.push({ type: 'text', text: f.text });
    }
    if (blocks.length === 0) return messages;
    const u = emit.addUser(messages, blocks, 'meta');
    yield u.event;
    return u.messages;
  }

  async function atStop(): Promise<{ reason: 'async_hook_rewake'; detail: string } | null> {
    if (!inbox) return null;
    const running = inbox.rewakeRunning();
    if (!inbox.hasWake() && running > 0) await inbox.waitForRewake(signal);
    if (signal.aborted || !inbox.hasWake()) return null;
    return { reason: 'async_hook_rewake', detail: running > 0 ? `waited for ${running} asyncRewake hook(s); one exited 2` : 'an asyncRewake hook exited 2' };
  }

  return { deliver, atStop };
}
