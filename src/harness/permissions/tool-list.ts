/**
 * A tool list as Claude Code takes it (`--allowedTools`, a command's `allowed-tools`): comma- or
 * space-separated, and a rule's parentheses kept whole (`"Bash(git log:*) Read"`, `Bash(npm test),Edit`).
 */
export function splitToolList(v: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of v) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
