/**
 * A deterministic findings extractor for collapse summaries: the lines of collapsed tool outputs
 * (and assistant text) a later turn is likely to need — a value set in a constant, a location
 * (`path:line`), an error, a bug, a decision. An action list alone ("read src/a.ts (120 lines)")
 * loses them once the range leaves the request; these lines travel in the summary instead.
 * No model call, so the same history always gives the same summary and the same cached prefix.
 */
import type { Message, ToolUseBlock } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { toolResultText } from './tokens.ts';

/** Most finding lines kept from one tool output, and from one collapsed range. */
export const FINDINGS_PER_OUTPUT = 3;
export const FINDINGS_PER_RANGE = 24;
const MAX_LINE = 160;

const PATTERNS: readonly RegExp[] = [
  // a location: path/file.ext:123
  /[\w./-]+\.[A-Za-z]{1,5}:\d+/,
  // a constant's value: NAME = value, NAME: value
  /\b[A-Z][A-Z0-9_]{2,}\s*[=:]\s*\S/,
  // what went wrong, what was decided
  /\b(error|errors|bug|fails?|failed|failure|exception|decision|decided|must not|never|todo|fixme|warning|root cause)\b/i,
];

/** Whether a line reads as a finding. */
export function isFinding(line: string): boolean {
  const t = line.trim();
  return t.length >= 6 && PATTERNS.some((p) => p.test(t));
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > MAX_LINE ? `${one.slice(0, MAX_LINE)}…` : one;
}

/** The findings of one text: its first few finding lines, clipped, without repeats. */
export function findingsOf(text: string, max = FINDINGS_PER_OUTPUT): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (out.length >= max) break;
    if (!isFinding(line)) continue;
    const c = clip(line);
    if (!out.includes(c)) out.push(c);
  }
  return out;
}

/** Findings of messages `from..to` (inclusive): each labelled with the call it came from. */
export function findingsOfRange(messages: readonly Message[], from: number, to: number, label: (use: ToolUseBlock | undefined) => string): string[] {
  const uses = new Map<string, ToolUseBlock>();
  const out: string[] = [];
  for (let i = from; i <= to && out.length < FINDINGS_PER_RANGE; i++) {
    const m = messages[i]!;
    for (const b of blocksOf(m)) {
      if (b.type === 'tool_use') uses.set(b.id, b);
      else if (b.type === 'tool_result') for (const f of findingsOf(toolResultText(b))) out.push(`- ${label(uses.get(b.tool_use_id))}: ${f}`);
      else if (b.type === 'text' && m.role === 'assistant') for (const f of findingsOf(b.text, 2)) out.push(`- assistant noted: ${f}`);
    }
  }
  const seen = new Set<string>();
  return out.filter((l) => !seen.has(l) && seen.add(l)).slice(0, FINDINGS_PER_RANGE);
}
