/**
 * The headless runner's exit code, from how each run ended: 0 when every run completed; 3 when
 * the only problem was a refusal (the model declined; a script can tell "declined" from
 * "broken"); 1 when any run ended otherwise (model error, turn limit, stop, hook). Usage errors
 * (2) and Ctrl-C (130) are decided before this; the numbers live in `EXIT` (args.ts).
 */
import { EXIT } from './args.ts';

export function exitCodeFor(reasons: readonly string[]): number {
  if (reasons.every((r) => r === 'completed')) return EXIT.ok;
  return reasons.every((r) => r === 'completed' || r === 'refusal') ? EXIT.refusal : EXIT.runFailed;
}
