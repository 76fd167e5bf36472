/**
 * A cheap token estimate: about four characters per token for English and code. Good enough to
 * draw the context bar; the context layer compares it with the API's real counts.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
