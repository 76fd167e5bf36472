/**
 * Attacker: Workbench files pasted as `../x`, `/etc/x` or `.claude/../../x`, hoping to land outside
 * the project (or to crash "Run with it" with a bare ZodError); an MCP server added by URL with a
 * password and a `?token=`, hoping they sit in localStorage for any script to read later.
 */
import { describe, expect, it } from 'vitest';
import { loadClaudeDir } from '../../src/harness/claude-dir/load.ts';
import { parseScenario } from '../../src/scenarios/schema.ts';
import { builtinScenarios } from '../../src/scenarios/library/index.ts';
import { urlWithoutCredentials, savedRecordOf } from '../../src/storage/mcp-servers.ts';
import { scenarioWithImport } from '../../src/ui/workbench/import-scenario.ts';

describe('paths and credentials that must not be kept', () => {
  it('a pasted file outside the project is named as a problem and left out; the rest still runs', () => {
    const imp = loadClaudeDir({ '../x': 'a', '/etc/x': 'b', '.claude/../../x': 'c', '~/.claude/../../y': 'd', 'ok.txt': 'fine' });
    expect(imp.problems.map((p) => p.file).sort()).toEqual(['../x', '.claude/../../x', '/etc/x', '~/.claude/../../y']);
    expect(imp.problems.every((p) => /leaves the project/.test(p.message))).toBe(true);
    expect(Object.keys(imp.sandboxFiles)).toEqual(['ok.txt']);
    // "Run with it" gets a scenario the schema accepts (no ZodError).
    const scenario = scenarioWithImport(builtinScenarios[0]!, imp, 'pasted');
    expect(parseScenario(scenario).ok).toBe(true);
  });

  it('a server URL is saved without its password or credential parameters', () => {
    expect(urlWithoutCredentials('https://me:hunter2@mcp.example.com/mcp?token=abc&region=eu&api_key=k')).toBe('https://mcp.example.com/mcp?region=eu');
    expect(urlWithoutCredentials('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    const saved = savedRecordOf({ name: 'docs', transport: 'http', url: 'https://u:p@mcp.example.com/mcp?access_token=zzz', scope: 'user' }, 1);
    expect(typeof saved === 'string' ? saved : saved.url).toBe('https://mcp.example.com/mcp');
  });
});
