/**
 * Slash commands at the prompt site, as Claude Code runs them in its prompt box and in `-p`: a
 * prompt that is `/compact [instructions]` never reaches the model — the history is summarised
 * now (PreCompact / PostCompact with trigger `manual`, the instructions in `custom_instructions`)
 * and the run ends. Each command is a `slash.command` event. Other names pass through as prompts.
 */
import { textOf } from '../messages.ts';
import type { TraceEvent } from '../trace.ts';
import type { ContextSite } from './context-site.ts';
import type { RunEmitter } from './emitter.ts';
import type { LoopState, RunResult } from './types.ts';

/** `/name args` → its parts; null for a prompt that is not a slash command. */
export function parseSlashCommand(text: string): { name: string; args: string } | null {
  const m = /^\/([a-z][a-z0-9_:-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { name: m[1]!.toLowerCase(), args: (m[2] ?? '').trim() } : null;
}

/** Commands the loop itself runs; the others are the page's or the runner's (panels, /clear, /cost …). */
export const LOOP_SLASH_COMMANDS = ['compact'] as const;

export async function* slashSite(state: LoopState, emit: RunEmitter, context: ContextSite): AsyncGenerator<TraceEvent, RunResult | null> {
  const last = state.messages[state.messages.length - 1];
  if (last?.role !== 'user') return null;
  const cmd = parseSlashCommand(textOf(last));
  if (!cmd || cmd.name !== 'compact') return null;
  yield emit.stamp({ type: 'slash.command', name: cmd.name, args: cmd.args });
  // The layers keep the newest exchange beside the summary; here that is the command, which is
  // then dropped: it never stays in the history.
  const history = state.messages.slice(0, -1);
  const done = yield* context.compactNow(state.messages, state.context, cmd.args);
  if (done.compaction && done.committed) {
    const kept = done.committed.at(-1) === last ? done.committed.slice(0, -1) : done.committed;
    const detail = `/compact: summarised ${done.compaction.messagesBefore} messages into ${kept.length}`;
    return yield* emit.exit('completed', { ...state, messages: kept, context: done.nextState }, undefined, detail);
  }
  const why = done.compactError ? `/compact failed: ${done.compactError}` : '/compact: nothing to compact yet';
  return yield* emit.exit('completed', { ...state, messages: history, context: done.nextState }, undefined, why);
}
