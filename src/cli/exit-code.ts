/**
 * The headless runner's exit code, from how each run ended: 0 when every run completed; 3 when
 * the only problem was a refusal (the model declined; a script can tell "declined" from
 * "broken"); 1 when any run ended otherwise (model error, turn limit, stop, hook). 2 is kept for
 * usage errors, which never get this far.
 */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_REFUSAL = 3;

export function exitCodeFor(reasons: readonly string[]): number {
  if (reasons.every((r) => r === 'completed')) return EXIT_OK;
  return reasons.every((r) => r === 'completed' || r === 'refusal') ? EXIT_REFUSAL : EXIT_FAILED;
}
