/**
 * What an informational built-in command prints headless (`-p "/context"`), from what the run
 * knows — the same things the page's panels show. `/cost` is the runner's (it keeps the ledger of
 * the session's calls). Pure: the loop passes in what it has.
 */
import type { HooksConfig } from '../hooks/config.ts';
import type { Message } from '../messages.ts';
import type { PermissionContext } from '../permissions/types.ts';
import { estimateTextTokens } from '../context/tokens.ts';
import type { AnyTool } from '../tools/tool.ts';

export type BuiltinView = {
  system: string;
  tools: readonly AnyTool[];
  memory?: string;
  /** The conversation before the command. */
  messages: readonly Message[];
  windowTokens: number;
  permissions?: PermissionContext;
  hooks?: HooksConfig;
  memoryFiles?: readonly string[];
};

const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;

function contextLines(v: BuiltinView): string[] {
  const parts: [string, number][] = [
    ['system prompt', estimateTextTokens(v.system)],
    ['tools', estimateTextTokens(JSON.stringify(v.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputJsonSchema }))))],
    ['memory files', estimateTextTokens(v.memory ?? '')],
    ['messages', estimateTextTokens(JSON.stringify(v.messages))],
  ];
  const used = parts.reduce((s, [, n]) => s + n, 0);
  return [
    `Context: ~${used} of ${v.windowTokens} tokens (${pct(used, v.windowTokens)}), estimated at 4 characters per token`,
    ...parts.map(([label, n]) => `  ${label}: ~${n} tokens (${pct(n, v.windowTokens)})`),
    `  free: ~${Math.max(0, v.windowTokens - used)} tokens`,
  ];
}

function hookLines(hooks: HooksConfig | undefined): string[] {
  const events = Object.entries(hooks ?? {}).filter(([, groups]) => groups && groups.length > 0);
  if (events.length === 0) return ['Hooks: none configured (or not trusted).'];
  return [
    'Hooks:',
    ...events.flatMap(([event, groups]) =>
      groups!.flatMap((g) => g.hooks.map((h) => `  ${event}${g.matcher ? ` [${g.matcher}]` : ''}: ${h.type} ${'command' in h ? `${h.command}${h.async || h.asyncRewake ? ` (${h.asyncRewake ? 'asyncRewake' : 'async'})` : ''}` : 'prompt' in h ? h.prompt : 'url' in h ? `POST ${h.url}` : ''}`.trimEnd())),
    ),
  ];
}

function permissionLines(p: PermissionContext | undefined): string[] {
  if (!p) return ['Permissions: default mode, no rules.'];
  return [`Permissions: mode ${p.mode}`, ...(p.rules.length ? p.rules.map((r) => `  ${r.behavior} ${r.rule.text} (${r.source})`) : ['  no rules'])];
}

function agentLines(tools: readonly AnyTool[]): string[] {
  const agent = tools.find((t) => t.name === 'agent');
  const teams = tools.some((t) => t.name === 'spawn_teammate');
  if (!agent) return ['Agents: the agent tool is not in this run.'];
  return ['Agents (from the agent tool the model sees):', ...agent.description.split('\n').map((l) => `  ${l}`), ...(teams ? ['  teammates: spawn_teammate is available'] : [])];
}

function mcpLines(tools: readonly AnyTool[]): string[] {
  const byServer = new Map<string, string[]>();
  for (const t of tools) {
    const m = /^mcp__([^_]+(?:_[^_]+)*)__(.+)$/.exec(t.name);
    if (m) byServer.set(m[1]!, [...(byServer.get(m[1]!) ?? []), m[2]!]);
  }
  if (byServer.size === 0) return ['MCP servers: none connected in this run.'];
  return ['MCP servers:', ...[...byServer].map(([s, names]) => `  ${s}: ${names.join(', ')}`)];
}

function memoryLines(v: BuiltinView): string[] {
  const files = v.memoryFiles ?? [];
  return [
    `Memory: ~${estimateTextTokens(v.memory ?? '')} tokens injected into the first prompt`,
    ...(files.length ? files.map((f) => `  ${f}`) : ['  no memory files were read']),
  ];
}

/** The text `/name` prints headless; null for a command that prints nothing of its own. */
export function builtinOutput(name: string, v: BuiltinView): string | null {
  switch (name) {
    case 'context':
      return contextLines(v).join('\n');
    case 'hooks':
      return hookLines(v.hooks).join('\n');
    case 'permissions':
      return permissionLines(v.permissions).join('\n');
    case 'agents':
      return agentLines(v.tools).join('\n');
    case 'mcp':
      return mcpLines(v.tools).join('\n');
    case 'memory':
      return memoryLines(v).join('\n');
    default:
      return null;
  }
}
