/**
 * A custom command's prompt with its arguments in place, as Claude Code expands it: `$ARGUMENTS`
 * is everything after the name, `$1`, `$2`… the words (a "quoted phrase" is one word). A prompt
 * that uses neither still gets what was typed, as a last line `ARGUMENTS: …`, so nothing typed is lost.
 */
export function commandWords(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

export function expandCommand(body: string, args: string): string {
  const words = commandWords(args);
  let used = false;
  const out = body.replace(/\$ARGUMENTS\b|\$(\d+)/g, (whole, n: string | undefined) => {
    used = true;
    if (n === undefined) return args;
    return words[Number(n) - 1] ?? '';
  });
  return !used && args ? `${out}\n\nARGUMENTS: ${args}` : out;
}
