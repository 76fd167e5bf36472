/**
 * Claude Code's built-in slash commands that the playground has. `/compact` and `/clear` change
 * the conversation in the loop; the others show something: in the page the matching panel opens
 * (`panel`), headless the runner prints the same information. None of them calls the model.
 */
export type BuiltinCommand = { name: string; description: string; panel?: string };

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'compact', description: 'summarise the conversation now (optional instructions: what to keep)' },
  { name: 'clear', description: 'start a new conversation (the session ends with reason "clear")' },
  { name: 'context', description: 'show what fills the context window', panel: 'context' },
  { name: 'cost', description: 'show the tokens and dollars this conversation spent', panel: 'cost' },
  { name: 'memory', description: 'show the memory files (CLAUDE.md) and saved memories', panel: 'memory' },
  { name: 'hooks', description: 'show the configured hooks', panel: 'hooks' },
  { name: 'permissions', description: 'show the permission rules and mode', panel: 'permissions' },
  { name: 'agents', description: 'show the subagents and teammates', panel: 'agents' },
  { name: 'mcp', description: 'show the MCP servers', panel: 'mcp' },
];

export function builtinCommand(name: string): BuiltinCommand | undefined {
  return BUILTIN_COMMANDS.find((c) => c.name === name);
}

/** The one-line answer to `/foo` when no command has that name: what exists instead. */
export function unknownCommandMessage(name: string, custom: readonly string[]): string {
  const all = [...BUILTIN_COMMANDS.map((c) => c.name), ...custom].map((n) => `/${n}`);
  return `Unknown slash command: /${name}. Commands here: ${all.join(', ')}.`;
}
