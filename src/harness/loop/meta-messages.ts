/**
 * The words the harness says to the model at its continue sites. Each one changes what the model
 * sees, so no retry repeats the previous call identically.
 */
import type { StopDetails } from '../messages.ts';

export const MAX_TOKENS_RESUME =
  'Your previous reply hit the output token limit and was cut off. Resume directly from where it ' +
  'stopped, mid-thought if need be: no apology, no recap of what you already wrote. Break the ' +
  'remaining work into smaller pieces (shorter replies, one tool call at a time).';

export const MALFORMED_TOOL_USE_RETRY =
  'One or more of your tool calls had input that was not valid JSON, so they were not run. ' +
  'Look at the error results above and make those calls again with valid JSON input.';

export const EMPTY_RESPONSE_RETRY =
  'Your previous reply was empty. Continue with the task: answer, or call a tool.';

export const INTERRUPTED_RESULT = 'The user interrupted this tool call before it finished; it did not complete.';

export const NOT_RUN_INTERRUPTED = 'The user interrupted the run before this tool call started; it was not run.';

export function malformedInputResult(toolName: string, raw: string, parseError: string): string {
  const shown = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return (
    `The input for tool "${toolName}" was not valid JSON (${parseError}), so the tool was not run. ` +
    `Received: ${shown || '(empty)'}\nRetry the call with a complete JSON object as input.`
  );
}

/** What a blocking Stop hook tells the model: its reason is the instruction to keep going. */
export function stopHookFeedback(reason: string | undefined): string {
  return `Stop hook feedback:\n${reason ?? 'A Stop hook asked you to keep working before you finish.'}`;
}

/**
 * The run's last words on a `refusal`: the API's explanation when it sent one (`stop_details`),
 * and what the person can do. The refused reply itself is not kept in the conversation — sent
 * back, it would read as an answer the model stands by — so a new prompt starts clean.
 */
export function refusalDetail(details: StopDetails | undefined): string {
  const category = details?.category ? ` (category: ${details.category})` : '';
  const why = details?.explanation ? `The API's explanation${category}: ${details.explanation}` : `The API gave no explanation${category}.`;
  return `The model declined to continue. ${why} Its reply was not kept in the conversation; rephrase or ask something else to carry on.`;
}
