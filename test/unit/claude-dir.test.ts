/**
 * A real `.claude/` brought in as it is: settings at every scope merged with Claude Code's
 * precedence and each value's source, every problem named by file and line while the rest still
 * loads, the sandbox's settings read at run start (headless, and in the runner's --dir mode via
 * prepareRun), and export → import giving the same effective configuration.
 */
import { describe, expect, it } from 'vitest';
import { unzipSync, strFromU8 } from 'fflate';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { classifyPath, effectiveRows, exportClaudeDir, loadClaudeDir, stripPickedRoot, zipFiles } from '../../src/harness/claude-dir/index.ts';
import { parseSettings } from '../../src/harness/settings/parse.ts';
import type { ScopedSettings } from '../../src/harness/settings/merge.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import type { Scenario } from '../../src/scenarios/schema.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { drain, ofType } from './loop-helpers.ts';

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

const setup: Record<string, string> = {
  '~/.claude/settings.json': json({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash(git status)'] } }),
  '.claude/settings.json': json({ permissions: { defaultMode: 'plan', deny: ['Bash(rm *)'] }, hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: './.claude/hooks/check.sh' }] }] } }),
  '.claude/settings.local.json': json({ permissions: { defaultMode: 'default', allow: ['Bash(rm *)'] } }),
  '.claude/hooks/check.sh': '#!/bin/sh\nexit 0\n',
  '.claude/skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release.\n---\nRun the release script.\n',
  '.claude/skills/release/run.sh': 'echo release\n',
  '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews a diff.\n---\nYou review.\n',
  '.mcp.json': json({ mcpServers: { docs: { url: 'http://127.0.0.1:9/mcp' } } }),
  'CLAUDE.md': '# project\n',
  'src/a.ts': 'export const a = 1;\n',
};

function scopesOf(imp: ReturnType<typeof loadClaudeDir>): ScopedSettings[] {
  return imp.settings.map((s) => ({ source: s.scope, settings: s.settings }));
}

describe('.claude/ import: what each file is', () => {
  it('classifies by path as Claude Code finds them', () => {
    expect(classifyPath('~/.claude/settings.json')).toEqual({ kind: 'settings', scope: 'user' });
    expect(classifyPath('.claude/settings.json')).toEqual({ kind: 'settings', scope: 'project' });
    expect(classifyPath('.claude/settings.local.json')).toEqual({ kind: 'settings', scope: 'local' });
    expect(classifyPath('pkg/CLAUDE.md')).toEqual({ kind: 'memory', user: false });
    expect(classifyPath('.claude/skills/x/SKILL.md')).toEqual({ kind: 'skill', name: 'x', main: true });
    expect(classifyPath('.claude/agents/r.md')).toEqual({ kind: 'agent', user: false });
    expect(classifyPath('.mcp.json')).toEqual({ kind: 'mcp' });
    expect(classifyPath('.claude/hooks/a.sh')).toEqual({ kind: 'hook-script' });
    expect(classifyPath('src/a.ts')).toEqual({ kind: 'other' });
  });

  it('drops the picked folder’s own name, but not a picked .claude folder', () => {
    const strip = stripPickedRoot(['app/.claude/settings.json', 'app/CLAUDE.md']);
    expect(strip('app/.claude/settings.json')).toBe('.claude/settings.json');
    expect(stripPickedRoot(['.claude/settings.json', '.claude/agents/a.md'])('.claude/settings.json')).toBe('.claude/settings.json');
  });

  it('loads every kind, lists what can act, keeps the user’s own files out of the sandbox', () => {
    const imp = loadClaudeDir(setup);
    expect(imp.problems).toEqual([]);
    expect(imp.settings.map((s) => s.scope).sort()).toEqual(['local', 'project', 'user']);
    expect(imp.skills).toEqual([{ name: 'release', file: '.claude/skills/release/SKILL.md', scripts: ['.claude/skills/release/run.sh'] }]);
    expect(imp.agents).toEqual(['.claude/agents/reviewer.md']);
    expect(imp.mcpServers).toEqual(['docs']);
    expect(imp.hookScripts).toEqual(['.claude/hooks/check.sh']);
    expect(imp.memory).toEqual(['CLAUDE.md']);
    expect(Object.keys(imp.sandboxFiles)).not.toContain('~/.claude/settings.json');
    expect(imp.sandboxFiles['src/a.ts']).toBe('export const a = 1;\n');
    expect(imp.canAct.join('\n')).toMatch(/hook command/);
    expect(imp.canAct.join('\n')).toMatch(/allow rules Bash\(rm \*\)/);
    expect(imp.canAct.join('\n')).toMatch(/MCP server\(s\) docs/);
    expect(imp.canAct.join('\n')).toMatch(/skill with 1 script/);
  });
});

describe('.claude/ import: problems name file and line, the rest still loads', () => {
  it('a bad settings file, a broken agent, a broken skill and a bad .mcp.json are each reported', () => {
    const imp = loadClaudeDir({
      ...setup,
      '.claude/settings.local.json': '{\n  "permissions": {\n    "allow": ["Bash(rm *"]\n  }\n}\n',
      '.claude/agents/broken.md': '---\nname: broken\ndescription: [unclosed\n---\nbody\n',
      '.claude/skills/bad/SKILL.md': 'no frontmatter\n',
      '.mcp.json': '{\n  "mcpServers": {\n    "docs": { "url": "x" },\n    "nothing": {}\n  }\n}\n',
    });
    const by = (file: string) => imp.problems.filter((p) => p.file === file);
    expect(by('.claude/settings.local.json')[0]).toMatchObject({ line: 3 });
    expect(by('.claude/agents/broken.md')[0]!.line).toBeGreaterThanOrEqual(2);
    expect(by('.claude/skills/bad/SKILL.md')[0]).toMatchObject({ line: 1 });
    expect(by('.mcp.json')[0]).toMatchObject({ line: 4, message: expect.stringMatching(/"nothing" needs a "command"/) });
    // The rest loads: project and user settings, the good agent, the good skill, the good server;
    // the bad local file applies what it can, failing closed (issue 19): its unreadable allow is left out.
    expect(imp.settings.map((s) => s.scope).sort()).toEqual(['local', 'project', 'user']);
    expect(imp.settings.find((s) => s.scope === 'local')!.settings.permissions?.allow ?? []).toEqual([]);
    expect(imp.agents).toEqual(['.claude/agents/reviewer.md']);
    expect(imp.skills.map((s) => s.name)).toEqual(['release']);
    expect(imp.mcpServers).toEqual(['docs']);
    // The file stays in the sandbox as written: run start reads it the same way (failing closed).
    expect(imp.sandboxFiles['.claude/settings.local.json']).toBeDefined();
  });

  it('a JSON syntax error gives its line and column', () => {
    const imp = loadClaudeDir({ '.claude/settings.json': '{\n  "permissions": {\n    "deny": ["Bash(rm *)",]\n  }\n}\n' });
    expect(imp.problems).toHaveLength(1);
    expect(imp.problems[0]).toMatchObject({ file: '.claude/settings.json', line: 3 });
    expect(imp.problems[0]!.message).toMatch(/JSON syntax/);
  });
});

describe('settings precedence and source attribution', () => {
  it('local over project over user for the mode; rules of every scope kept with their source; a deny anywhere wins', () => {
    const rows = effectiveRows(scopesOf(loadClaudeDir(setup)));
    const modes = rows.filter((r) => r.key === 'permissions.defaultMode');
    expect(modes.find((r) => !r.overriddenBy)).toEqual({ key: 'permissions.defaultMode', value: 'default', source: 'local' });
    expect(modes.filter((r) => r.overriddenBy).map((r) => [r.source, r.overriddenBy])).toEqual(
      expect.arrayContaining([
        ['project', 'local'],
        ['user', 'local'],
      ]),
    );
    expect(rows).toContainEqual({ key: 'permissions.deny', value: 'Bash(rm *)', source: 'project' });
    expect(rows).toContainEqual({ key: 'permissions.allow', value: 'Bash(rm *)', source: 'local' });
    expect(rows).toContainEqual({ key: 'permissions.allow', value: 'Bash(git status)', source: 'user' });
    expect(rows).toContainEqual({ key: 'hooks.PreToolUse', value: '[bash] ./.claude/hooks/check.sh', source: 'project' });
    // Deny rows come first: the pipeline checks deny → ask → allow across all scopes.
    expect(rows.findIndex((r) => r.key === 'permissions.deny')).toBeLessThan(rows.findIndex((r) => r.key === 'permissions.allow'));
  });
});

function scenarioWith(files: Record<string, string>, base = 'layered-claude-settings'): Scenario {
  const s = findBuiltinScenario(base)!;
  return { ...s, files };
}

describe('run start reads the sandbox’s settings (headless)', () => {
  it('the layered lesson: settings.read lists both files, local’s mode and project’s deny decide', async () => {
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: findBuiltinScenario('layered-claude-settings')!, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events, result } = await drain(input, deps);
    expect(result.reason).toBe('completed');
    const read = ofType(events, 'settings.read');
    expect(read).toHaveLength(1);
    expect(read[0]!.files.map((f) => [f.path, f.scope, f.ok])).toEqual([
      ['.claude/settings.local.json', 'local', true],
      ['.claude/settings.json', 'project', true],
    ]);
    expect(read[0]!.scopes).toEqual(['local', 'project', 'scenario']);
    // Which source decided the mode: local's acceptEdits over the project's plan.
    expect(read[0]).toMatchObject({ mode: 'acceptEdits', modeFrom: 'local' });
    expect(explainEvent(read[0]!).why).toContain('Mode `acceptEdits`, from local settings.');
    const decisions = ofType(events, 'permission.decision');
    expect(decisions.map((d) => [d.name, d.decision, d.stage])).toEqual([
      ['write', 'allow', 'mode'],
      ['bash', 'deny', 'rules'],
    ]);
    expect(decisions[1]!.decidedBy.text).toMatch(/\(project\)/);
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/draft.txt`)).toBe('old draft\n');
  });

  it('an edit of the settings file in the sandbox is honoured by the next run', async () => {
    const base = findBuiltinScenario('layered-claude-settings')!;
    const files = { ...base.files, '.claude/settings.local.json': json({ permissions: {} }) };
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: scenarioWith(files), sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, deps);
    // Without local's acceptEdits the project's plan mode is in force: the write is not allowed at the mode stage.
    const write = ofType(events, 'permission.decision').find((d) => d.name === 'write')!;
    expect(write.decision).toBe('deny');
  });

  it('a broken settings file is reported with its line and applies failing closed; the run still goes on', async () => {
    const base = findBuiltinScenario('layered-claude-settings')!;
    const files = { ...base.files, '.claude/settings.local.json': '{\n  "permissions": {\n    "defaultMode": "yolo"\n  }\n}\n' };
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: scenarioWith(files), sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events, result } = await drain(input, deps);
    const read = ofType(events, 'settings.read')[0]!;
    const local = read.files.find((f) => f.scope === 'local')!;
    expect(local.ok).toBe(false);
    expect(local.problems[0]!.line).toBe(3);
    // Its unreadable mode reads as default (asks), never the next scope's looser one.
    expect(read.scopes).toEqual(['local', 'project', 'scenario']);
    expect(result.reason).toBe('completed');
  });

  it('untrusted: the sandbox’s allow rules and modes do not apply, its deny does', async () => {
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: findBuiltinScenario('layered-claude-settings')!, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: false });
    const { events } = await drain(input, deps);
    expect(ofType(events, 'settings.read')[0]!.trusted).toBe(false);
    const bash = ofType(events, 'permission.decision').find((d) => d.name === 'bash')!;
    expect(bash.decision).toBe('deny');
    expect(bash.decidedBy.text).toMatch(/\(project\)/);
  });

  it('a scenario without .claude/ settings logs no settings.read', async () => {
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: findBuiltinScenario('fix-a-bug')!, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, deps);
    expect(ofType(events, 'settings.read')).toEqual([]);
  });
});

describe('.claude/ export', () => {
  it('export → import gives the same effective configuration; Claude Code’s schema, no playground keys, no key', () => {
    const imp = loadClaudeDir(setup);
    const project = imp.settings.find((s) => s.scope === 'project')!.settings;
    const local = imp.settings.find((s) => s.scope === 'local')!.settings;
    const scenarioSettings = { permissions: { ask: ['Bash(npm publish *)'] }, always_deny: ['curl'] };
    const out = exportClaudeDir({ scenarioSettings, project, local, files: imp.sandboxFiles });
    expect(out.leftOut.join('\n')).toMatch(/always_deny/);
    expect(Object.keys(out.files).sort()).toEqual(
      ['.claude/agents/reviewer.md', '.claude/hooks/check.sh', '.claude/settings.json', '.claude/settings.local.json', '.claude/skills/release/SKILL.md', '.claude/skills/release/run.sh', '.mcp.json', 'CLAUDE.md'].sort(),
    );
    const zipped = unzipSync(zipFiles(out.files));
    const back: Record<string, string> = {};
    for (const [p, bytes] of Object.entries(zipped)) back[p] = strFromU8(bytes);
    expect(back).toEqual(out.files);
    expect(JSON.parse(back['.claude/settings.json']!).$schema).toMatch(/claude-code-settings/);
    for (const text of Object.values(back)) expect(text).not.toMatch(/sk-ant|apiKey/i);

    const again = loadClaudeDir(back);
    expect(again.problems).toEqual([]);
    const strip = (rows: ReturnType<typeof effectiveRows>) => rows.map((r) => `${r.key}=${r.value}@${r.source}${r.overriddenBy ? `<${r.overriddenBy}` : ''}`).sort();
    // Before: the scenario's rule ranks with project. After: it is in the project file.
    const before = effectiveRows([{ source: 'project', settings: project }, { source: 'project', settings: { permissions: scenarioSettings.permissions } }, { source: 'local', settings: local }]);
    expect(strip(effectiveRows(scopesOf(again)))).toEqual([...new Set(strip(before))]);
    // And the settings parse as valid settings again.
    expect(parseSettings(back['.claude/settings.json']!, 'json').ok).toBe(true);
  });

  it('JS hooks are the playground’s own: left out of settings.json, and said so', () => {
    const out = exportClaudeDir({
      scenarioSettings: { hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'js', name: 'guard', code: 'return {}' }, { type: 'command', command: 'true' }] }] } },
      files: {},
    });
    const s = JSON.parse(out.files['.claude/settings.json']!);
    expect(s.hooks.PreToolUse[0].hooks).toEqual([{ type: 'command', command: 'true' }]);
    expect(out.leftOut.join('\n')).toMatch(/1 PreToolUse JS hook/);
  });
});
