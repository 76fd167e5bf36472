/**
 * MCP tool naming (Claude Code's sanitising), and that permission rules and hook matchers treat
 * MCP tools exactly like built-ins: `mcp__server__tool`, `mcp__server`, `mcp__server__*`.
 */
import { describe, expect, it } from 'vitest';
import { mcp, permissions } from '../../src/harness/index.ts';
import { compileMatcher, matches } from '../../src/harness/hooks/matcher.ts';

describe('MCP tool names', () => {
  it('prefixes with mcp__<server>__ and replaces characters the API does not allow with _', () => {
    expect(mcp.mcpToolName('calc', 'add')).toBe('mcp__calc__add');
    expect(mcp.mcpToolName('my.server', 'read file')).toBe('mcp__my_server__read_file');
    expect(mcp.mcpToolName('gh-api', 'list/issues')).toBe('mcp__gh-api__list_issues');
    expect(mcp.sanitizeMcpName('ünï©ode')).toBe('_n__ode');
  });

  it('refuses a name longer than the API allows instead of cutting it', () => {
    const name = mcp.mcpToolName('server', 'x'.repeat(60));
    expect(name.length).toBeGreaterThan(64);
    expect(mcp.mcpToolNameProblem(name)).toMatch(/at most 64/);
    expect(mcp.mcpToolNameProblem('mcp__calc__add')).toBeNull();
  });

  it('skips tools that cannot be used and keeps the rest, each skip with a reason', () => {
    const r = mcp.readToolList('my.srv', [
      { name: 'ok', inputSchema: { type: 'object' } },
      { name: 'no-schema' },
      { inputSchema: {} },
      { name: 'y'.repeat(70), inputSchema: { type: 'object' } },
      { name: 'o k', inputSchema: { type: 'object' } },
      { name: 'o.k', inputSchema: { type: 'object' } },
    ]);
    expect(r.tools.map((t) => t.fullName)).toEqual(['mcp__my_srv__ok', 'mcp__my_srv__o_k']);
    expect(r.skipped.map((s) => s.tool)).toEqual(['no-schema', '#3', 'y'.repeat(70), 'o.k']);
    expect(r.skipped[3]!.reason).toMatch(/also named mcp__my_srv__o_k/);
  });
});

describe('rules name MCP tools', () => {
  const rule = (text: string) => {
    const p = permissions.parseRule(text);
    if (!p.ok) throw new Error(p.error);
    return p.rule;
  };
  it('exact, whole-server and wildcard rules', () => {
    expect(permissions.ruleNamesTool(rule('mcp__calc__add').tool, 'mcp__calc__add')).toBe(true);
    expect(permissions.ruleNamesTool(rule('mcp__calc__add').tool, 'mcp__calc__sub')).toBe(false);
    expect(permissions.ruleNamesTool(rule('mcp__calc').tool, 'mcp__calc__sub')).toBe(true);
    expect(permissions.ruleNamesTool(rule('mcp__calc__*').tool, 'mcp__calc__sub')).toBe(true);
    expect(permissions.ruleNamesTool(rule('mcp__calc').tool, 'mcp__calculator__sub')).toBe(false);
    expect(permissions.ruleNamesTool(rule('Bash').tool, 'mcp__calc__add')).toBe(false);
  });
  it('refuses MCP rules with parentheses, with a hint', () => {
    const p = permissions.parseRule('mcp__calc__add(x)');
    expect(p.ok).toBe(false);
  });
});

describe('hook matchers see the full MCP name', () => {
  const subject = ['mcp__calc__add'];
  it('exact, regex and "*" matchers', () => {
    expect(matches(compileMatcher('mcp__calc__add'), subject)).toBe(true);
    expect(matches(compileMatcher('mcp__calc__.*'), subject)).toBe(true);
    expect(matches(compileMatcher('mcp__.*__add'), subject)).toBe(true);
    expect(matches(compileMatcher('*'), subject)).toBe(true);
    expect(matches(compileMatcher('Bash'), subject)).toBe(false);
    expect(matches(compileMatcher('mcp__other__.*'), subject)).toBe(false);
  });
});
