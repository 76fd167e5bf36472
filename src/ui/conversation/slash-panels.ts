/**
 * Where a built-in slash command's panel is in this page: the harness names a panel (`cost`,
 * `permissions` …, see `src/harness/commands/builtin-commands.ts`), the side panel has tabs.
 * Some live inside another tab (cost under Context, the rules under Settings).
 */
export type SlashTab = { tab: 'context' | 'memory' | 'hooks' | 'settings' | 'workbench' | 'mcp'; label: string };

const TABS: Readonly<Record<string, SlashTab>> = {
  context: { tab: 'context', label: 'Context' },
  cost: { tab: 'context', label: 'Context (its cost section)' },
  memory: { tab: 'memory', label: 'Memory' },
  hooks: { tab: 'hooks', label: 'Hooks' },
  permissions: { tab: 'settings', label: 'Settings (permission rules and mode)' },
  agents: { tab: 'workbench', label: 'Workbench (.claude/agents)' },
  mcp: { tab: 'mcp', label: 'MCP' },
};

export function slashTab(panel: string | undefined): SlashTab | null {
  return panel ? (TABS[panel] ?? null) : null;
}
