/**
 * The collapse summary prompt: a no-tools request in which the model writes the summary that stands
 * in for one collapsed range of exchanges (the rest of the conversation stays in the request, so
 * the summary covers only what these messages did and found). The findings the deterministic
 * extractor picked from the range (`findings.ts`) go into the prompt as lines to keep verbatim, and
 * {@link keepFindings} appends any the reply dropped: a written summary keeps at least what the
 * deterministic one keeps.
 */
import type { Message, TextBlock } from '../messages.ts';
import { renderTranscriptCut } from './compact-prompt.ts';

export const COLLAPSE_SYSTEM =
  'You summarise part of a coding agent’s conversation. The agent keeps the rest of the conversation; ' +
  'your summary replaces only the messages you are shown. You cannot call tools. Keep file paths, ' +
  'function names, commands, values, error messages and decisions verbatim.';

/** Characters of the rendered range: the newest messages are kept when it is larger (~25k tokens). */
export const COLLAPSE_TRANSCRIPT_CHARS = 100_000;
/** Characters of each tool result in the rendered range (head). */
export const COLLAPSE_RESULT_CHARS = 1_500;

export function collapseInstructions(findings: readonly string[]): string {
  const keep = findings.length > 0 ? `\n\nThese findings were extracted from the messages; keep every one of them in your summary, verbatim:\n${findings.join('\n')}` : '';
  return (
    'Write a summary of the messages above (a range taken out of a longer session), to stand in for them in the agent’s context. ' +
    'Say what was done (files read or changed, commands run and their outcome) and what was learned: values, locations (path:line), ' +
    'errors and their causes, decisions and what the user asked. Be brief: a few short lines per step, no preamble. ' +
    `Do not call tools. Reply with the summary only.${keep}`
  );
}

/** The system and messages of the summary request for messages `range` (add `model` and `max_tokens`; no tools). */
export function buildCollapseRequest(range: readonly Message[], findings: readonly string[]): { system: TextBlock[]; messages: Message[] } {
  return collapseRequestOf(renderCollapseRange(range).text, findings);
}

/** The range as the summary request shows it; `maxChars` (default {@link COLLAPSE_TRANSCRIPT_CHARS}) cuts the oldest first. */
export function renderCollapseRange(range: readonly Message[], maxChars = COLLAPSE_TRANSCRIPT_CHARS): { text: string; leftOut: number } {
  return renderTranscriptCut(range, { maxResultChars: COLLAPSE_RESULT_CHARS, maxChars });
}

/** The summary request around an already rendered range. */
export function collapseRequestOf(transcript: string, findings: readonly string[]): { system: TextBlock[]; messages: Message[] } {
  return {
    system: [{ type: 'text', text: COLLAPSE_SYSTEM }],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: `<messages>\n${transcript}\n</messages>` },
          { type: 'text', text: collapseInstructions(findings) },
        ],
      },
    ],
  };
}

/** The text of a finding line (`- read src/a.ts: RATE = 3` → `RATE = 3`): what the summary must contain. */
function findingText(line: string): string {
  const body = line.replace(/^- /, '');
  const at = body.indexOf(': ');
  return (at >= 0 ? body.slice(at + 2) : body).replace(/…$/, '').trim();
}

/**
 * The written summary with every finding it does not contain (by its text, ignoring whitespace)
 * appended verbatim, so retention never depends on the model copying them.
 */
export function keepFindings(summary: string, findings: readonly string[]): { summary: string; appended: number } {
  const flat = summary.replace(/\s+/g, ' ');
  const missing = findings.filter((f) => !flat.includes(findingText(f).replace(/\s+/g, ' ')));
  if (missing.length === 0) return { summary: summary.trim(), appended: 0 };
  return { summary: `${summary.trim()}\nFindings (kept verbatim):\n${missing.join('\n')}`, appended: missing.length };
}
