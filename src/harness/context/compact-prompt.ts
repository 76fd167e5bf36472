/**
 * The auto-compact prompt: the model, with no tools, writes a structured summary of the
 * conversation that replaces it. The sections follow what Claude Code is reported to ask for
 * (REFERENCE.md, "Context management"; the exact prompt is unverified, this one is ours).
 *
 * The history is sent as a rendered transcript inside one user message rather than as the raw
 * message list: the request then needs no tool definitions, and each tool result is clipped so the
 * summary request fits even when the conversation itself no longer does ("prompt is too long").
 */
import type { Message, TextBlock } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { toolResultText } from './tokens.ts';

export const COMPACT_SYSTEM =
  'You summarise a coding agent’s conversation so the agent can continue the work from the summary alone. ' +
  'You cannot call tools. Be precise: keep file paths, function names, commands, error messages and decisions verbatim.';

export const COMPACT_SECTIONS = [
  'Primary request and intent',
  'Key technical concepts',
  'Files and code sections',
  'Errors and fixes',
  'Problem solving',
  'All user messages',
  'Pending tasks',
  'Current work',
  'Next step',
] as const;

export function compactInstructions(custom?: string): string {
  const sections = COMPACT_SECTIONS.map((s, i) => `${i + 1}. ${s}`).join('\n');
  return (
    'Write a summary of the conversation above, to replace it in the agent’s context. Use exactly these sections, ' +
    'as markdown headings, in this order:\n' +
    `${sections}\n\n` +
    'Under "All user messages" list every message the user wrote (not tool results), in order, quoted or closely paraphrased. ' +
    'Under "Current work" say precisely what was being done just before this summary, with file names and code. ' +
    'Under "Next step" give the next step only if it follows directly from the user’s latest request; quote the request. ' +
    'Do not call tools. Reply with the summary only.' +
    (custom ? `\n\nAdditional instructions: ${custom}` : '')
  );
}

export type RenderOptions = {
  /** Characters kept of each tool result (head). Default 2,000. */
  maxResultChars?: number;
  /** Characters of the whole transcript; older messages are cut first. Default 400,000 (~100k tokens). */
  maxChars?: number;
};

/** The history as plain text, one labelled section per message. */
export function renderTranscript(messages: readonly Message[], opts: RenderOptions = {}): string {
  return renderTranscriptCut(messages, opts).text;
}

/** {@link renderTranscript} with the number of messages it left out to fit `maxChars`. */
export function renderTranscriptCut(messages: readonly Message[], opts: RenderOptions = {}): { text: string; leftOut: number } {
  const maxResult = opts.maxResultChars ?? 2_000;
  const maxChars = opts.maxChars ?? 400_000;
  const parts = messages.map((m, i) => {
    const body = blocksOf(m)
      .map((b) => {
        switch (b.type) {
          case 'text':
            return b.text;
          case 'tool_use':
            return `[tool call ${b.id}: ${b.name} ${JSON.stringify(b.input)}]`;
          case 'tool_result': {
            const t = toolResultText(b);
            const shown = t.length > maxResult ? `${t.slice(0, maxResult)}\n… (${t.length - maxResult} more chars)` : t;
            return `[tool result ${b.tool_use_id}${b.is_error ? ' (error)' : ''}]\n${shown}`;
          }
          case 'thinking':
            return '';
          case 'redacted_thinking':
            return '';
        }
      })
      .filter((s) => s !== '')
      .join('\n');
    return `### ${i}. ${m.role}\n${body}`;
  });
  // Keep the newest messages when the whole does not fit; always keep the first (the task).
  let total = parts.reduce((n, p) => n + p.length + 2, 0);
  let start = 1;
  while (total > maxChars && start < parts.length - 1) {
    total -= parts[start]!.length + 2;
    start++;
  }
  const kept = start > 1 ? [parts[0]!, `… (${start - 1} messages left out to fit) …`, ...parts.slice(start)] : parts;
  return { text: kept.join('\n\n'), leftOut: start - 1 };
}

/** The system and messages of the summary request (add `model` and `max_tokens`; no tools). */
export function buildCompactRequest(
  messages: readonly Message[],
  opts: RenderOptions & { customInstructions?: string } = {},
): { system: TextBlock[]; messages: Message[] } {
  return compactRequestOf(renderTranscript(messages, opts), opts.customInstructions);
}

/** The summary request around an already rendered transcript. */
export function compactRequestOf(transcript: string, customInstructions?: string): { system: TextBlock[]; messages: Message[] } {
  return {
    system: [{ type: 'text', text: COMPACT_SYSTEM }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: `<conversation>\n${transcript}\n</conversation>` },
          { type: 'text', text: compactInstructions(customInstructions) },
        ],
      },
    ],
  };
}

/** The text of the user message that replaces the summarised history. */
export function summaryMessageText(summary: string, removed: number): string {
  return (
    `[compacted] This session continues from an earlier conversation that ran out of context. ` +
    `${removed} earlier messages were replaced by this summary; the last exchange follows verbatim.\n\n${summary.trim()}`
  );
}
