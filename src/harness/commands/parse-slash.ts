/**
 * A prompt read as a slash command: `/name args`. A path (`/home/project/app.ts fails`) is not a
 * command — the name stops at the first `/`.
 */
import type { TraceEvent } from '../trace.ts';
import { builtinCommand } from './builtin-commands.ts';

/** `/name args` → its parts; null for a prompt that is not a slash command. */
export function parseSlashCommand(text: string): { name: string; args: string } | null {
  const m = /^\/([a-z][a-z0-9_:-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { name: m[1]!.toLowerCase(), args: (m[2] ?? '').trim() } : null;
}

/** A prompt the harness answers itself (a built-in command): it needs no model, so a used-up script may still run it. */
export function needsNoModel(text: string): boolean {
  const cmd = parseSlashCommand(text);
  return cmd !== null && builtinCommand(cmd.name) !== undefined;
}

/** Whether the last run of these events was `/clear` (the next prompt starts a new conversation in the same sandbox). */
export function lastRunCleared(events: readonly TraceEvent[]): boolean {
  const start = events.findLastIndex((e) => e.type === 'run.start' && e.agentId === 'main');
  return start >= 0 && events.slice(start).some((e) => e.type === 'slash.command' && e.agentId === 'main' && e.name === 'clear' && e.kind === 'builtin');
}
