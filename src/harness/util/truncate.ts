/**
 * Head + tail truncation: long output keeps its beginning (what the command was doing) and its
 * end (how it finished, usually the error), with a marker saying how much was cut. Used by the
 * sandboxes for command output and by the tool runner for oversized results.
 */

export type Truncated = { text: string; truncated: boolean; omittedChars: number };

export function truncateHeadTail(text: string, maxChars: number): Truncated {
  if (text.length <= maxChars) return { text, truncated: false, omittedChars: 0 };
  const headChars = Math.floor(maxChars * 0.6);
  const tailChars = maxChars - headChars;
  const omitted = text.length - headChars - tailChars;
  const head = text.slice(0, headChars);
  const tail = tailChars > 0 ? text.slice(text.length - tailChars) : '';
  return {
    text: `${head}\n\n… [${omitted.toLocaleString('en-US')} characters cut from the middle; ${text.length.toLocaleString('en-US')} in all] …\n\n${tail}`,
    truncated: true,
    omittedChars: omitted,
  };
}
