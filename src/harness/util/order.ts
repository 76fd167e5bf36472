/**
 * String order for what the harness sorts (skills, commands, rule files, agent definitions, team
 * files): by UTF-16 code units, as `ls` orders under `LC_ALL=C`. Not `localeCompare`: its order
 * depends on the runtime's locale and ICU data, so the same `.claude/` could list its skills in one
 * order in the headless runner and another in a visitor's browser (a different prompt, a different
 * cache prefix); and its first call builds an ICU collator, 15–40 ms on a page's first Step.
 */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
