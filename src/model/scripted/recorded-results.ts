/**
 * Recorded tool results: what a recording keeps of each tool call's result, and how a replay
 * compares the result it really got with it. Pure functions, shared by the recorder (which
 * writes them) and the scripted client (which checks them), so both sides agree on what counts.
 *
 * What is compared is normalised first, so a faithful replay never raises a false alarm: tool
 * ids (`toolu_…` differ between a live run and its replay), durations, clock times and dates, git
 * object names, and whitespace (trailing spaces, CRLF, runs of blank lines) do not count.
 */
import type { ReplayDivergence } from '../../harness/leaf-types.ts';
import type { Message, ToolResultBlock } from '../../harness/messages.ts';
import type { RecordedResult } from './script.ts';

/**
 * Results up to this long are kept whole; longer ones keep their head plus a fingerprint (the
 * share link stays small). A divergence event carries each side cut to the same length, so the
 * card's short diff compares like with like.
 */
export const RECORDED_HEAD_CHARS = 400;

const TOOL_ID = /\btoolu_[A-Za-z0-9_]+/g;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
/**
 * A date as `date` prints it (`Sat Dec  5 05:24:58 UTC 2026`) and as `git log` and `git show` do
 * (`Sat Dec 5 05:25:02 2026 +0000`): a replay on another day must not read as a divergence.
 */
const WEEKDAY_DATE = /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} \d{1,2}:\d{2}:\d{2}(?: [A-Z]{2,5})? \d{4}(?: [+-]\d{4})?/g;
const CLOCK_TIME = /\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g;
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?)\b/g;
/** A number after a timing key: node --test's `duration_ms: 27.254`, `# duration_ms 395.000`, `elapsed=3`. */
const TIMING_FIELD = /\b((?:duration|elapsed|time)(?:_?ms)?["']?\s*[:=]?\s*)\d+(?:\.\d+)?/gi;
/** Git object names (commit hashes change with the clock); a run of hex with both digits and letters. */
const HEX_ID = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g;
/**
 * An object name where git prints one, even when it happens to be all digits (about one short
 * hash in 27 is, so a run that commits failed one replay in 27): `[main 1778499] msg`,
 * `[main (root-commit) 0123456]`, `commit <oid>`, `HEAD is now at <oid>`, `Updating a..b`, the
 * first word of a `git log --oneline` line (so a 7–12 digit number opening a line followed by a
 * space is taken for one too), and any full 40-digit name. A number anywhere else still counts,
 * so a changed count is still a divergence.
 */
const GIT_OID_IN_PLACE =
  /(?<=\[[^\]\s]+ (?:\(root-commit\) )?|\bcommit |\bHEAD is now at |\bUpdating |[0-9a-f<>]\.\.\.?)[0-9a-f]{7,40}\b|^[0-9a-f]{7,12}(?= )|\b[0-9a-f]{40}\b/gm;

/** The text of a result block, whichever shape its content has. */
export function resultText(block: Pick<ToolResultBlock, 'content'>): string {
  return typeof block.content === 'string' ? block.content : block.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}

/** Every tool result in `messages`, by tool_use id (the first one wins). */
export function resultsById(messages: readonly Message[]): Map<string, { content: string; isError: boolean }> {
  const out = new Map<string, { content: string; isError: boolean }>();
  for (const m of messages) {
    if (typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type === 'tool_result' && !out.has(b.tool_use_id)) out.set(b.tool_use_id, { content: resultText(b), isError: b.is_error ?? false });
    }
  }
  return out;
}

/** The form two results are compared in. */
export function normaliseResult(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(TOOL_ID, 'toolu_<id>')
    .replace(ISO_TIME, '<time>')
    .replace(WEEKDAY_DATE, '<time>')
    .replace(CLOCK_TIME, '<time>')
    .replace(TIMING_FIELD, '$1<duration>')
    .replace(DURATION, '<duration>')
    .replace(HEX_ID, '<hex>')
    .replace(GIT_OID_IN_PLACE, '<hex>')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** FNV-1a, 32 bits, as 8 hex digits: a fingerprint of a long result, not a security measure. */
export function digest(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** What a recording keeps of one result. */
export function toRecordedResult(content: string, isError: boolean): RecordedResult {
  const flag = isError ? { is_error: true } : {};
  if (content.length <= RECORDED_HEAD_CHARS) return { content, ...flag };
  const n = normaliseResult(content);
  return { content: content.slice(0, RECORDED_HEAD_CHARS), ...flag, full: { chars: n.length, digest: digest(n) } };
}

/** Whether `actual` is what the recording saw, after normalising both. */
export function sameResult(recorded: RecordedResult, actual: { content: string; isError: boolean }): boolean {
  if ((recorded.is_error ?? false) !== actual.isError) return false;
  const n = normaliseResult(actual.content);
  if (recorded.full) return n.length === recorded.full.chars && digest(n) === recorded.full.digest;
  return n === normaliseResult(recorded.content);
}

/** One call the replay played, waiting for its result to come back in a request. */
export type PendingResult = { name: string; recordedTurn: number; recorded: RecordedResult };

/**
 * Compares the tool results in `request` with the pending recorded ones, by tool_use id, and
 * removes every one it judged from `pending` (so a retry of the same request is not judged twice).
 */
export function checkResults(pending: Map<string, PendingResult>, messages: readonly Message[]): ReplayDivergence[] {
  const out: ReplayDivergence[] = [];
  for (const [id, actual] of resultsById(messages)) {
    const p = pending.get(id);
    if (!p) continue;
    pending.delete(id);
    if (sameResult(p.recorded, actual)) continue;
    const expected = { content: p.recorded.content, isError: p.recorded.is_error ?? false };
    out.push({
      toolUseId: id,
      name: p.name,
      recordedTurn: p.recordedTurn,
      what: expected.isError !== actual.isError ? 'is_error' : 'content',
      // A recorded head says it is one, as the clipped actual does.
      expected: { ...expected, content: p.recorded.full ? `${expected.content}…` : clip(expected.content) },
      actual: { ...actual, content: clip(actual.content) },
    });
  }
  return out;
}

function clip(text: string): string {
  return text.length <= RECORDED_HEAD_CHARS ? text : `${text.slice(0, RECORDED_HEAD_CHARS)}…`;
}
