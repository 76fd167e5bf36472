/**
 * Rule strings in Claude Code's syntax: `Tool`, `Tool(specifier)`, `mcp__server`,
 * `mcp__server__tool`, `mcp__server__*`, `WebFetch(domain:host)`. Parsing never throws: an invalid
 * rule comes back with a message saying what is wrong and how to write it.
 */
import type { PermissionRule } from './types.ts';
import { canonicalToolName, RULE_TOOL_MAP } from './tool-names.ts';

/** Rule names whose specifier is a gitignore-style path pattern. */
export const PATH_RULE_TOOLS = new Set(['Read', 'Edit', 'Write', 'MultiEdit', 'Glob', 'Grep']);

export { canonicalToolName };

/** The harness tool names a rule's tool name covers (unknown names cover the tool of that exact name). */
export function toolsCoveredBy(ruleTool: string): readonly string[] {
  const canon = canonicalToolName(ruleTool);
  // A Claude Code name also covers a (custom) tool of exactly that name: knowing the name never narrows a rule.
  const ours = RULE_TOOL_MAP[canon];
  return ours ? (ours.includes(canon) ? ours : [...ours, canon]) : [ruleTool];
}

/** Whether a rule's tool part (ignoring the specifier) names this harness tool. */
export function ruleNamesTool(ruleTool: string, toolName: string): boolean {
  if (ruleTool.startsWith('mcp__')) {
    const parts = ruleTool.split('__');
    // mcp__server and mcp__server__* cover every tool of that server.
    if (parts.length === 2 || (parts.length === 3 && parts[2] === '*')) return toolName.startsWith(`mcp__${parts[1]}__`);
    return toolName === ruleTool;
  }
  return toolsCoveredBy(ruleTool).includes(toolName);
}

export type ParsedRule = { ok: true; rule: PermissionRule & { kind: 'tool' } } | { ok: false; error: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const MCP = /^mcp__[A-Za-z0-9_-]+?(__([A-Za-z0-9_-]+|\*))?$/;

export function parseRule(text: string): ParsedRule {
  const src = text.trim();
  if (src === '') return { ok: false, error: 'A rule cannot be empty. Write a tool name, e.g. "Bash" or "Bash(npm test *)".' };
  const open = src.indexOf('(');
  if (open === -1) {
    if (src.includes(')')) return { ok: false, error: `"${src}" has a ")" without "(". Write Tool(specifier), e.g. Bash(npm test *).` };
    if (src.startsWith('mcp__')) {
      if (!MCP.test(src)) return { ok: false, error: `"${src}" is not a valid MCP rule. Use mcp__server, mcp__server__tool or mcp__server__*.` };
      return { ok: true, rule: { kind: 'tool', tool: src, text: src } };
    }
    if (!NAME.test(src)) return { ok: false, error: `"${src}" is not a tool name. Names are letters, digits, "_" and "-", e.g. Bash or Read.` };
    return { ok: true, rule: { kind: 'tool', tool: canonicalToolName(src), text: src } };
  }
  if (!src.endsWith(')')) return { ok: false, error: `"${src}" opens "(" but does not end with ")". Write Tool(specifier), e.g. Read(./.env).` };
  const name = src.slice(0, open).trim();
  const spec = src.slice(open + 1, -1).trim();
  if (name.startsWith('mcp__')) {
    return { ok: false, error: `"${src}": MCP rules take no parentheses. Use mcp__server__tool (or mcp__server__* for every tool of a server).` };
  }
  if (!NAME.test(name)) return { ok: false, error: `"${src}": "${name}" is not a tool name. Write Tool(specifier), e.g. Bash(ls *).` };
  const tool = canonicalToolName(name);
  if (spec === '') return { ok: false, error: `"${src}" has empty parentheses. Leave them out (${name}) to cover every call, or put a specifier inside.` };
  // Tool(*) means the whole tool, like the bare name.
  if (spec === '*') return { ok: true, rule: { kind: 'tool', tool, text: src } };
  if (tool === 'Bash') {
    const legacy = spec.indexOf(':*');
    if (legacy !== -1 && legacy !== spec.length - 2) {
      return { ok: false, error: `"${src}": the legacy ":*" suffix must come last, e.g. Bash(npm run:*). Or use a space and "*": Bash(npm run *).` };
    }
  }
  if (tool === 'WebFetch' && !/^domain:[A-Za-z0-9*.-]+$/.test(spec)) {
    return { ok: false, error: `"${src}": WebFetch rules name a domain, e.g. WebFetch(domain:example.com).` };
  }
  return { ok: true, rule: { kind: 'tool', tool, specifier: spec, text: src } };
}

/** Whether the rule covers the whole tool (a bare name, `Tool(*)`, or an MCP server). */
export function isBareRule(rule: PermissionRule): boolean {
  return rule.kind === 'tool' && rule.specifier === undefined;
}
