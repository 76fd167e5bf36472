/**
 * Where the permission mode in force came from, in words: `settings.read`'s `modeFrom` is a
 * settings scope (`local`, `project`, `user` …), `you` (a mode picked for the run) or `default`.
 * One wording for the event's explanation and the mode stage of each call's strip.
 */
export function modeSourceText(modeFrom: string | undefined): string {
  if (modeFrom === undefined || modeFrom === 'default') return 'no scope (the default)';
  if (modeFrom === 'you') return 'your choice for this run';
  return `${modeFrom} settings`;
}
