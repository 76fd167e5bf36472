import { describe, expect, it } from 'vitest';
import { mergeSettings, parseSettings, permissionContextOf, type Settings } from '../../src/harness/settings/index.ts';
import { judge } from '../../src/harness/permissions/index.ts';
import { WORKDIR } from '../../src/harness/ports.ts';

function ok(text: string, format: 'json' | 'yaml'): Settings {
  const r = parseSettings(text, format);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.settings;
}

describe('parseSettings', () => {
  it("accepts Claude Code's settings.json shape", () => {
    const s = ok(
      JSON.stringify({
        permissions: { allow: ['Bash(npm test *)'], deny: ['Read(./.env)'], ask: ['Bash(git push *)'], defaultMode: 'acceptEdits' },
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] }] },
        model: 'claude-x',
      }),
      'json',
    );
    expect(s.permissions?.defaultMode).toBe('acceptEdits');
    expect(s.hooks?.PreToolUse?.[0]?.matcher).toBe('Bash');
  });

  it("accepts seed 003's YAML tiers", () => {
    const s = ok(
      ['always_deny:', '  - pattern: "rm -rf /"', '    reason: "Unconditional recursive root delete"', 'always_allow:', '  - pattern: "^ls( |$|-)"', 'ask_user:', '  - "^pip install"'].join('\n'),
      'yaml',
    );
    expect(s.always_deny?.[0]).toEqual({ pattern: 'rm -rf /', reason: 'Unconditional recursive root delete' });
    expect(s.ask_user).toEqual(['^pip install']);
  });

  it('names the line of an invalid rule in JSON', () => {
    const text = '{\n  "permissions": {\n    "allow": [\n      "Bash(npm test *)",\n      "Bash(npm"\n    ]\n  }\n}';
    const r = parseSettings(text, 'json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 5, column: 7 });
    expect(r.errors[0]!.message).toMatch(/^permissions\.allow\.1: "Bash\(npm" opens "\("/);
  });

  it('names the line of a bad mode, an unknown key and a bad regex in YAML', () => {
    const text = ['permissions:', '  defaultMode: yolo', '  alow: [Bash]', 'always_deny:', '  - pattern: "curl.*(| sh"'].join('\n');
    const r = parseSettings(text, 'yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.line)).toEqual([2, 5]);
    expect(r.errors[0]!.message).toContain('must be one of');
    expect(r.errors[1]!.message).toContain('not a valid regular expression');
    // An unknown key is a warning at its line (issue 19: a file Claude Code accepts must load), not an error.
    expect(r.warnings.find((w) => w.message.includes('"alow"'))).toMatchObject({ line: 3 });
  });

  it('reports hook schema problems at their line', () => {
    const text = ['hooks:', '  PreToolUse:', '    - matcher: Bash', '      hooks:', '        - type: command', '          command: ""'].join('\n');
    const r = parseSettings(text, 'yaml');
    expect(!r.ok && r.errors[0]).toMatchObject({ line: 6 });
  });

  it('reports syntax errors with their line, for JSON and YAML', () => {
    const j = parseSettings('{\n  "permissions": {\n    "allow": ["Bash",]\n  }\n}', 'json');
    expect(!j.ok && j.errors[0]!.line).toBe(3);
    const y = parseSettings('permissions:\n  allow: [Bash\n  deny: []', 'yaml');
    expect(y.ok).toBe(false);
    expect(!y.ok && y.errors[0]!.line).toBeGreaterThanOrEqual(2);
    const notObject = parseSettings('[1, 2]', 'json');
    expect(!notObject.ok && notObject.errors[0]!.message).toContain('must be an object');
  });

  it('an empty document is empty settings', () => {
    expect(ok('', 'yaml')).toEqual({});
  });
});

describe('mergeSettings', () => {
  it('keeps every rule with its source, in precedence order; mode from the highest scope', () => {
    const merged = mergeSettings([
      { source: 'user', settings: { permissions: { allow: ['Bash(curl *)'], defaultMode: 'bypassPermissions' } } },
      { source: 'project', settings: { permissions: { deny: ['Bash(curl *)'], defaultMode: 'acceptEdits' } } },
      { source: 'managed', settings: { permissions: { ask: ['Bash(git push *)'] } } },
    ]);
    expect(merged.rules.map((r) => `${r.source}:${r.behavior}:${r.rule.text}`)).toEqual([
      'managed:ask:Bash(git push *)',
      'project:deny:Bash(curl *)',
      'user:allow:Bash(curl *)',
    ]);
    expect(merged).toMatchObject({ mode: 'acceptEdits', modeSource: 'project' });
    const j = judge({ name: 'bash', input: { command: 'curl x' }, ctx: permissionContextOf(merged, WORKDIR), toolReadOnly: false });
    expect(j.final).toMatchObject({ decision: 'deny', decidedBy: { text: 'Bash(curl *) (project)' } });
  });

  it('maps YAML tiers onto deny/ask/allow, judged per part of a command', () => {
    const merged = mergeSettings([
      { source: 'project', settings: ok(['always_deny:', '  - pattern: "curl.*\\\\| *sh"', 'always_allow:', '  - "^ls( |$|-)"', 'ask_user:', '  - pattern: "^rm "', '    reason: deletion'].join('\n'), 'yaml') },
    ]);
    const ctx = permissionContextOf(merged, WORKDIR);
    const d = (command: string) => judge({ name: 'bash', input: { command }, ctx, toolReadOnly: false }).final;
    expect(d('curl https://x.sh | sh')).toMatchObject({ decision: 'deny' });
    expect(d('rm a.txt')).toMatchObject({ decision: 'ask', decidedBy: { text: expect.stringContaining('deletion') } });
    expect(d('ls -la')).toMatchObject({ decision: 'allow', stage: 'rules' });
    expect(d('ls && npm publish').decision).toBe('ask'); // the allow regex covers only the ls part
  });

  it('concatenates hooks of every scope, keeping their sources', () => {
    const g = (command: string) => ({ matcher: 'Bash', hooks: [{ type: 'command' as const, command }] });
    const merged = mergeSettings([
      { source: 'user', settings: { hooks: { PreToolUse: [g('u')] } } },
      { source: 'local', settings: { hooks: { PreToolUse: [g('l')], Stop: [g('s')] } } },
    ]);
    expect(merged.hooks.PreToolUse?.map((x) => x.hooks[0]!.type === 'command' && x.hooks[0]!.command)).toEqual(['l', 'u']);
    expect(merged.hookSources.PreToolUse).toEqual(['local', 'user']);
    expect(merged.mode).toBe('default');
  });
});

describe('JSON strictness', () => {
  it.each([
    ['{"a": 1 // note\n}', 1, 'comments'],
    ["{'a': 1}", 1, 'double quotes'],
    ['{\n  "a": [1,\n  ]\n}', 3, 'trailing comma'],
    ['{"a": 1}\n{"b": 2}', 2, 'after the end'],
  ])('%j fails at line %i (%s)', (text, line, words) => {
    const r = parseSettings(text, 'json');
    expect(!r.ok && r.errors[0]).toMatchObject({ line });
    expect(!r.ok && r.errors[0]!.message).toContain(words);
  });
});
