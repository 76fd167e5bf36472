/**
 * A cheap, deterministic summariser for context collapse: one line per action, built from the
 * tool calls and their results ("read src/a.ts (120 lines)", "ran `npm test` (exit 1)"), plus the
 * person's own words. No model call, so the same history always gives the same summary (and the
 * same cached prefix). Live runs ask a model for the summary instead (`collapse-model.ts`) and
 * fall back to this one when that call fails.
 */
import type { Message, ToolResultBlock, ToolUseBlock } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { toolResultText } from './tokens.ts';
import { findingsOfRange } from './findings.ts';

const MAX_LINES = 40;

function clip(text: string, n: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const v = input[key];
  return typeof v === 'string' ? v : undefined;
}

/** One line for a tool call and its result. */
export function describeCall(use: ToolUseBlock, result: ToolResultBlock | undefined): string {
  const out = result ? toolResultText(result) : '';
  const lines = out === '' ? 0 : out.split('\n').length;
  const failed = result?.is_error ? ', failed' : '';
  const exit = /^Exit code (\d+)/.exec(out)?.[1];
  const path = str(use.input, 'file_path') ?? str(use.input, 'path');
  switch (use.name) {
    case 'read':
      return `read ${path ?? '?'} (${lines} lines${failed})`;
    case 'write':
      return `wrote ${path ?? '?'}${failed}`;
    case 'edit':
      return `edited ${path ?? '?'}${failed}`;
    case 'bash':
      return `ran \`${clip(str(use.input, 'command') ?? '?', 80)}\` (exit ${exit ?? (result?.is_error ? '≠0' : '0')}, ${lines} lines)`;
    case 'grep':
    case 'glob':
      return `${use.name} ${clip(str(use.input, 'pattern') ?? '?', 60)} (${lines} lines${failed})`;
    default:
      return `${use.name} ${clip(JSON.stringify(use.input), 60)} (${lines} lines${failed})`;
  }
}

/** Where a finding came from: the call's short label (`read src/a.ts`). */
export function callLabel(use: ToolUseBlock | undefined): string {
  if (!use) return 'a tool';
  const target = str(use.input, 'file_path') ?? str(use.input, 'path') ?? str(use.input, 'command') ?? str(use.input, 'pattern');
  return target ? `${use.name} ${clip(target, 60)}` : use.name;
}

/**
 * Summary of messages `from..to` (inclusive): one line per action, then (with `findings`, the
 * default) the findings of the outputs — values, locations, errors, decisions (`findings.ts`).
 */
export function summarizeRange(messages: readonly Message[], from: number, to: number, opts: { findings?: boolean } = {}): string {
  const results = new Map<string, ToolResultBlock>();
  for (let i = from; i <= to; i++) {
    const m = messages[i]!;
    if (m.role === 'user') for (const b of blocksOf(m)) if (b.type === 'tool_result') results.set(b.tool_use_id, b);
  }
  const lines: string[] = [];
  for (let i = from; i <= to; i++) {
    const m = messages[i]!;
    for (const b of blocksOf(m)) {
      if (b.type === 'tool_use') lines.push(`- ${describeCall(b, results.get(b.id))}`);
      else if (b.type === 'text' && b.text.trim() !== '') {
        lines.push(m.role === 'user' ? `- user said: "${clip(b.text, 200)}"` : `- assistant: ${clip(b.text, 100)}`);
      }
    }
  }
  const shown = lines.slice(0, MAX_LINES);
  if (lines.length > MAX_LINES) shown.push(`- … and ${lines.length - MAX_LINES} more`);
  const findings = opts.findings === false ? [] : findingsOfRange(messages, from, to, callLabel);
  return findings.length > 0 ? `${shown.join('\n')}\nFindings:\n${findings.join('\n')}` : shown.join('\n');
}
