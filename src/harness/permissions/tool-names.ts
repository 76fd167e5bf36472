/**
 * Claude Code's tool names and ours, in one table. A pasted Claude Code config names `Agent`,
 * `TodoWrite`, `BashOutput`…; the harness's tools are `agent`, `todo_write`, `bash_output`…
 * Permission rules, hook matchers, hook `if` conditions, agent `tools:` lists and skill
 * `allowed-tools` all read names through this table, so `deny: ["Agent"]` stops subagents
 * wherever it is written. A Claude Code tool we do not have is "not available here" (reported),
 * and a name that is neither Claude Code's nor ours is reported too — never silently nothing.
 */

/**
 * Each of our tools → the Claude Code names of the SAME tool (exact identity: hook matchers use
 * this, and a matcher must not widen — a PermissionRequest hook that allows `Edit` must not allow
 * writes). Old names Claude Code still accepts are listed after the current one.
 */
export const CLAUDE_CODE_NAMES_OF: Readonly<Record<string, readonly string[]>> = {
  bash: ['Bash'],
  read: ['Read'],
  write: ['Write'],
  edit: ['Edit', 'MultiEdit'],
  glob: ['Glob'],
  grep: ['Grep'],
  agent: ['Agent', 'Task'],
  // Claude Code spawns teammates through its Agent tool (with a team name).
  spawn_teammate: ['Agent', 'Task'],
  send_message: ['SendMessage'],
  todo_write: ['TodoWrite'],
  skill: ['Skill'],
  bash_output: ['TaskOutput', 'BashOutput'],
  kill_shell: ['TaskStop', 'KillShell', 'KillBash'],
  task_create: ['TaskCreate'],
  task_list: ['TaskList'],
  task_get: ['TaskGet'],
  task_update: ['TaskUpdate'],
  exit_plan_mode: ['ExitPlanMode'],
  tool_search: ['ToolSearch'],
  webfetch: ['WebFetch'],
  web_fetch: ['WebFetch'],
  WebFetch: ['WebFetch'],
};

/**
 * Rule names that cover more of our tools than their own: Claude Code's `Edit(...)` rules apply
 * to every built-in tool that edits files (ours: edit, write, revert).
 */
const RULE_EXTRA_COVERAGE: Readonly<Record<string, readonly string[]>> = {
  Edit: ['revert', 'write'],
  MultiEdit: ['revert', 'write'],
};

/** Claude Code tools with no counterpart here: a rule or matcher naming one matches nothing, and says so. */
export const NOT_AVAILABLE_HERE: readonly string[] = [
  'AskUserQuestion', 'Artifact', 'CronCreate', 'CronDelete', 'CronList', 'EnterPlanMode', 'EnterWorktree',
  'ExitWorktree', 'ListMcpResourcesTool', 'LS', 'LSP', 'Monitor', 'NotebookEdit', 'NotebookRead', 'PowerShell',
  'ReadMcpResourceTool', 'SlashCommand', 'TeamCreate', 'TeamDelete', 'TodoRead', 'WebSearch',
];

/** Our own built-in tool names that no Claude Code name covers (still valid in rules, as themselves). */
const OWN_ONLY: readonly string[] = ['revert', 'read_tool_result', 'read_inbox'];

/** Claude Code name → the harness tools a permission rule naming it covers. */
export const RULE_TOOL_MAP: Readonly<Record<string, readonly string[]>> = (() => {
  const map: Record<string, string[]> = {};
  for (const [ours, names] of Object.entries(CLAUDE_CODE_NAMES_OF)) for (const n of names) (map[n] ??= []).push(ours);
  for (const [n, extra] of Object.entries(RULE_EXTRA_COVERAGE)) map[n] = [...new Set([...(map[n] ?? []), ...extra])];
  return map;
})();

const OWN_NAMES = new Set([...Object.keys(CLAUDE_CODE_NAMES_OF), ...OWN_ONLY]);

/** Names matched whatever their case (as before Claude Code's other names were known); the rest are case-sensitive. */
const CASE_INSENSITIVE = ['Bash', 'Read', 'Edit', 'Write', 'Glob', 'Grep', 'WebFetch'];

/**
 * `bash`, `BASH` and `Bash` all mean Claude Code's `Bash` (and so for the file tools); other names
 * are kept as written — `task` is not `Task`, so a custom tool named `task` keeps its own rules.
 */
export function canonicalToolName(name: string): string {
  const lower = name.toLowerCase();
  for (const known of CASE_INSENSITIVE) if (known.toLowerCase() === lower) return known;
  return name;
}

/** Our tool for a name as an agent's `tools:` list or a CLI flag writes it (`Agent` → `agent`); unknown names are kept. */
export function harnessToolNameOf(name: string): string {
  if (name.includes('(')) return name;
  const covered = RULE_TOOL_MAP[canonicalToolName(name)];
  return covered?.[0] ?? name;
}

/** What a tool name in a rule, matcher or list refers to here. */
export type ToolNameKind = 'claude-code' | 'not-available' | 'ours' | 'mcp' | 'unknown';

export function toolNameKind(name: string): ToolNameKind {
  if (name.startsWith('mcp__')) return 'mcp';
  const canon = canonicalToolName(name);
  if (RULE_TOOL_MAP[canon]) return 'claude-code';
  if (NOT_AVAILABLE_HERE.includes(canon)) return 'not-available';
  if (OWN_NAMES.has(name)) return 'ours';
  return 'unknown';
}

/**
 * A one-line warning for a tool name that matches none of our tools (`null` when it does): a
 * Claude Code tool we lack, or a name nobody has (a typo, or a custom tool defined elsewhere).
 */
export function toolNameWarning(name: string, where: string): string | null {
  const kind = toolNameKind(name);
  if (kind === 'not-available') return `${where} names ${canonicalToolName(name)}, a Claude Code tool not available here: it matches no built-in tool in this playground (only a custom tool of exactly that name).`;
  if (kind === 'unknown') {
    return `${where} names "${name}", which is neither a Claude Code tool nor one of ours: it matches only a custom tool of exactly that name (check the spelling; names are case-sensitive).`;
  }
  return null;
}

/**
 * Warnings for a tool list (an agent's `tools:`, a skill's or command's `allowed-tools`): one per
 * entry whose tool is a Claude Code tool not available here or a name nobody has. Entries may be
 * rules (`Bash(npm test *)`): the tool is the part before the parenthesis.
 */
export function toolListWarnings(entries: readonly string[], where: string): string[] {
  return entries.flatMap((entry) => {
    const w = toolNameWarning(entry.split('(')[0]!.trim(), `${where} "${entry}"`);
    return w ? [w] : [];
  });
}
