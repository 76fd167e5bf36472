import { describe, expect, it } from 'vitest';
import { judge } from '../../src/harness/permissions/index.ts';
import type { PermissionMode } from '../../src/harness/permissions/types.ts';
import { WORKDIR } from '../../src/harness/ports.ts';
import { mergeSettings, parseSettings, permissionContextOf, resolveMode, type ScopedSettings } from '../../src/harness/settings/index.ts';

const bypass = (source: string): ScopedSettings => ({ source, settings: { permissions: { defaultMode: 'bypassPermissions' } } });
const disable = (source: string): ScopedSettings => ({ source, settings: { permissions: { disableBypassPermissionsMode: 'disable' } } });

type ModeCase = [label: string, scopes: ScopedSettings[], requested: PermissionMode | undefined, expected: PermissionMode, note: RegExp | null];

// Claude Code: bypassPermissions is granted only by user settings or the CLI flag; a project's or
// local file's is ignored; disableBypassPermissionsMode: "disable" blocks it from every source.
const modeCases: ModeCase[] = [
  ['user settings may turn bypass on', [bypass('user')], undefined, 'bypassPermissions', null],
  ['managed settings may turn bypass on', [bypass('managed')], undefined, 'bypassPermissions', null],
  ['project settings cannot', [bypass('project')], undefined, 'default', /from project settings is ignored/],
  ['local settings cannot', [bypass('local')], undefined, 'default', /from local settings is ignored/],
  ['a scenario (a link, a file) cannot', [bypass('scenario')], undefined, 'default', /from scenario settings is ignored/],
  [
    'an ignored project bypass falls through to the next scope',
    [bypass('project'), { source: 'user', settings: { permissions: { defaultMode: 'acceptEdits' } } }],
    undefined,
    'acceptEdits',
    /ignored/,
  ],
  ['the CLI flag / Mode menu may choose bypass', [], 'bypassPermissions', 'bypassPermissions', null],
  ['disable in user settings blocks user bypass', [bypass('user'), disable('user')], undefined, 'default', /disabled by disableBypassPermissionsMode in user/],
  ['disable in project settings blocks user bypass', [bypass('user'), disable('project')], undefined, 'default', /disabled .* in project/],
  ['disable blocks the CLI flag', [disable('scenario')], 'bypassPermissions', 'default', /the mode you chose.*disabled/],
  ['disable falls back to the settings mode, not to nothing', [disable('managed'), { source: 'user', settings: { permissions: { defaultMode: 'plan' } } }], 'bypassPermissions', 'plan', /disabled/],
  ['disable leaves other modes alone', [disable('managed')], 'acceptEdits', 'acceptEdits', null],
];

describe('bypassPermissions is gated by scope', () => {
  it.each(modeCases)('%s', (_label, scopes, requested, expected, note) => {
    const merged = mergeSettings(scopes);
    const chosen = resolveMode(merged, requested);
    const ctx = permissionContextOf(merged, WORKDIR, requested ? { mode: requested } : {});
    expect(chosen.mode).toBe(expected);
    expect(ctx.mode).toBe(expected);
    const notes = [...merged.modeNotes, ...(chosen.note ? [chosen.note] : [])].join(' ');
    if (note) expect(notes).toMatch(note);
    else expect(notes).toBe('');
  });

  it('an ignored project bypass really asks: rm is not auto-approved', () => {
    const ctx = permissionContextOf(mergeSettings([bypass('project')]), WORKDIR);
    expect(judge({ name: 'bash', input: { command: 'rm build.log' }, ctx, toolReadOnly: false }).final.decision).toBe('ask');
  });
});

type WriteCase = [label: string, name: string, input: unknown, rules: { allow?: string[]; deny?: string[]; ask?: string[] }, expected: string];

// Claude Code does not honour Write(...) rules; Edit(...) rules govern writes.
const writeCases: WriteCase[] = [
  ['a Write allow does not allow a write', 'write', { file_path: 'src/a.ts', content: 'x' }, { allow: ['Write(src/**)'] }, 'ask'],
  ['a bare Write allow does not allow a write', 'write', { file_path: 'a.txt', content: 'x' }, { allow: ['Write'] }, 'ask'],
  ['a Write allow does not allow a redirect', 'bash', { command: 'echo x > notes.txt' }, { allow: ['Write(notes.txt)'] }, 'ask'],
  ['an Edit allow allows the write', 'write', { file_path: 'src/a.ts', content: 'x' }, { allow: ['Edit(src/**)'] }, 'allow'],
  ['an Edit allow allows the redirect', 'bash', { command: 'echo x > notes.txt' }, { allow: ['Edit(notes.txt)'] }, 'allow'],
  ['a Write deny still denies (stricter than Claude Code)', 'write', { file_path: 'a.txt', content: 'x' }, { deny: ['Write(a.txt)'] }, 'deny'],
];

describe('Write(...) rules', () => {
  it.each(writeCases)('%s', (_label, name, input, permissions, expected) => {
    const ctx = permissionContextOf(mergeSettings([{ source: 'user', settings: { permissions } }]), WORKDIR);
    expect(judge({ name, input, ctx, toolReadOnly: false }).final.decision).toBe(expected);
  });
});

describe('settings warnings', () => {
  it('warns about a Write rule with its line and column, and says what to write instead', () => {
    const text = '{\n  "permissions": {\n    "allow": [\n      "Bash(ls *)",\n      "Write(src/**)"\n    ]\n  }\n}';
    const r = parseSettings(text, 'json');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatchObject({ line: 5, column: 7 });
    expect(r.warnings[0]!.message).toMatch(/grants nothing.*Edit\(src\/\*\*\)/);
  });

  it('warns about a Write deny in YAML too, saying it still applies', () => {
    const r = parseSettings('permissions:\n  deny:\n    - Write(.env)\n', 'yaml');
    expect(r.ok && r.warnings[0]).toMatchObject({ line: 3, message: expect.stringMatching(/still applies it as a deny/) });
  });

  it('explains a rule written as a compound command and a project bypass', () => {
    const r = parseSettings(JSON.stringify({ permissions: { allow: ['Bash(npm test && npm run lint)'], defaultMode: 'bypassPermissions' } }), 'json');
    if (!r.ok) throw new Error('should parse');
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/2 separate rules \(Bash\(npm test\), Bash\(npm run lint\)\)/);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/bypassPermissions is honoured only from user settings/);
  });

  it('a document with nothing odd has no warnings', () => {
    const r = parseSettings(JSON.stringify({ permissions: { allow: ['Edit(src/**)', 'Bash(npm test *)'] } }), 'json');
    expect(r.ok && r.warnings).toEqual([]);
  });
});
