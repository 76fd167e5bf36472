/**
 * Issue 19 §1 (second bullet) and issue 20 §4: a settings file Claude Code accepts loads here too
 * (what we do not run or use is a warning with its line), and a file that truly has mistakes still
 * applies what it can, failing closed — never looser than Claude Code's reading of it.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { CLAUDE_CODE_HOOK_EVENTS, CLAUDE_CODE_HOOK_TYPES, HOOK_EVENTS_FIRED as HOOK_EVENTS, HOOK_TYPES_RUN_HERE } from '../../src/harness/hooks/config.ts';
import { loadClaudeDir } from '../../src/harness/claude-dir/index.ts';
import { NOT_USED_KEYS, PERMISSIONS_NOT_USED_KEYS } from '../../src/harness/settings/claude-code-keys.ts';
import { mergeSettings, parseSettings, resolveMode, type Settings } from '../../src/harness/settings/index.ts';
import { evaluateRules } from '../../src/harness/permissions/evaluate.ts';
import { callFacts } from '../../src/harness/permissions/call-facts.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { drain, ofType } from './loop-helpers.ts';

const W = '/home/project';
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function loaded(text: string): { settings: Settings; warnings: { line: number; message: string }[] } {
  const r = parseSettings(text, 'json');
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r;
}
/** What a file decides for a call: the strict reading when it parses, the fail-closed one when not. */
function decide(text: string, tool: string, input: unknown): string {
  const r = parseSettings(text, 'json');
  const merged = mergeSettings([{ source: 'project', settings: r.ok ? r.settings : r.fallback }]);
  return evaluateRules(callFacts(tool, input, W, W), merged.rules, W).decision;
}
const bash = (command: string) => ['bash', { command }] as const;

describe('a file Claude Code accepts loads', () => {
  it('a "prompt" hook loads (and runs) and the deny rules stay', () => {
    const text = json({
      permissions: { deny: ['Bash(rm *)'] },
      hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is the work done? $ARGUMENTS', timeout: 30 }] }] },
    });
    const r = loaded(text);
    expect(r.settings.permissions?.deny).toEqual(['Bash(rm *)']);
    expect(r.settings.hooks?.Stop?.[0]?.hooks).toEqual([{ type: 'prompt', prompt: 'Is the work done? $ARGUMENTS', timeout: 30 }]);
    expect(r.warnings).toEqual([]);
    expect(decide(text, ...bash('rm -rf src'))).toBe('deny');
  });

  it.each(['StopFailure', 'PermissionDenied', 'TeammateIdle', 'TaskCompleted', 'ConfigChange', 'InstructionsLoaded', 'WorktreeCreate', 'SessionEnd'])(
    'a hook on %s loads and keeps its hook (the event fires here)',
    (event) => {
      const r = loaded(json({ permissions: { deny: ['Agent'] }, hooks: { [event]: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
      expect(r.settings.permissions?.deny).toEqual(['Agent']);
      expect(r.warnings).toEqual([]);
      expect(Object.keys(r.settings.hooks ?? {})).toEqual([event]);
    },
  );

  it.each(['Elicitation', 'Setup', 'DirectoryAdded'])(
    'a hook on %s loads with a "not run here" warning at its line',
    (event) => {
      const r = loaded(json({ permissions: { deny: ['Agent'] }, hooks: { [event]: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
      expect(r.settings.permissions?.deny).toEqual(['Agent']);
      expect(r.warnings).toContainEqual(expect.objectContaining({ line: 8, message: expect.stringContaining(`loaded, not run here — this playground does not fire ${event}`) }));
    },
  );

  it('every event in Claude Code\'s hooks reference loads; the ones fired here keep their hooks', () => {
    const hooks = Object.fromEntries(CLAUDE_CODE_HOOK_EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command: 'true' }] }]]));
    const r = loaded(json({ hooks }));
    expect(Object.keys(r.settings.hooks ?? {}).sort()).toEqual([...HOOK_EVENTS].sort());
    expect(r.warnings.filter((w) => /not run here/.test(w.message))).toHaveLength(CLAUDE_CODE_HOOK_EVENTS.length - HOOK_EVENTS.length);
  });

  it('http, agent and mcp_tool hooks, async and timeout fields load', () => {
    const r = loaded(
      json({
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'http', url: 'http://127.0.0.1:8080/hook', timeout: 5, headers: { A: 'b' } },
                { type: 'agent', prompt: 'check' },
                { type: 'command', command: 'echo hi', async: true, timeout: 10 },
              ],
            },
          ],
        },
      }),
    );
    // http hooks run (hooks-http.test.ts) and async command hooks run in the background (hooks-async.test.ts).
    expect(r.settings.hooks?.PreToolUse?.[0]?.hooks).toEqual([{ type: 'http', url: 'http://127.0.0.1:8080/hook', timeout: 5, headers: { A: 'b' } }, { type: 'command', command: 'echo hi', async: true, timeout: 10 }]);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/"agent" hook is loaded, not run here/);
    expect(r.warnings.map((w) => w.message).join('\n')).not.toMatch(/"http" hook is loaded|"async"/);
  });

  it('an unknown hook event or type is a warning, not a rejected file', () => {
    const r = loaded(json({ permissions: { ask: ['Bash(git push *)'] }, hooks: { pretooluse: [{ hooks: [] }], PreToolUse: [{ hooks: [{ type: 'webhook' }] }] } }));
    expect(r.settings.permissions?.ask).toEqual(['Bash(git push *)']);
    expect(r.warnings.map((w) => w.message).join('\n')).toMatch(/unknown hook event "pretooluse" \(did you mean "PreToolUse"\?[^]*unknown hook type "webhook"/);
  });

  it('defaultMode "manual" is Claude Code\'s alias of default (issue 20 §4)', () => {
    const r = loaded(json({ permissions: { defaultMode: 'manual', deny: ['Read(./.env)'] } }));
    expect(r.settings.permissions).toEqual({ defaultMode: 'default', deny: ['Read(./.env)'] });
    expect(mergeSettings([{ source: 'user', settings: { permissions: { defaultMode: 'acceptEdits' } } }, { source: 'project', settings: r.settings }]).mode).toBe('default');
  });

  it('defaultMode "auto" (no counterpart here) is left out with a warning; the rest loads', () => {
    const r = loaded(json({ permissions: { defaultMode: 'auto', deny: ['Bash(curl *)'] } }));
    expect(r.settings.permissions).toEqual({ deny: ['Bash(curl *)'] });
    expect(r.warnings[0]).toMatchObject({ line: 3, message: expect.stringMatching(/defaultMode "auto" is a Claude Code mode this playground does not have/) });
  });

  it('settings keys we do not model are listed as "not used here"; unknown keys warn; both at their line', () => {
    const r = loaded(json({ statusLine: { type: 'command', command: 'x' }, outputStyle: 'Explanatory', apiKeyHelper: '/bin/k', cleanupPeriodDays: 3, frobnicate: 1, permissions: { deny: ['Bash'], disableAutoMode: 'disable' } }));
    const text = r.warnings.map((w) => `${w.line}: ${w.message}`).join('\n');
    for (const [line, key] of [[2, 'statusLine'], [6, 'outputStyle'], [7, 'apiKeyHelper'], [8, 'cleanupPeriodDays']] as const) {
      expect(text).toContain(`${line}: "${key}" is a Claude Code setting not used here`);
    }
    expect(text).toContain('9: unknown setting "frobnicate"');
    expect(text).toContain('14: permissions.disableAutoMode is a Claude Code setting not used here');
    expect(r.settings.permissions?.deny).toEqual(['Bash']);
  });
});

describe('a file with real mistakes fails closed', () => {
  it('an unreadable deny rule denies its whole tool; an unreadable allow grants nothing', () => {
    const text = json({ permissions: { deny: ['Bash(rm -rf *'], allow: ['Bash(ls', 'Read'] } });
    const r = parseSettings(text, 'json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.line)).toEqual([4, 7]);
    expect(r.fallback.permissions).toEqual({ deny: ['Bash'], allow: ['Read'] });
    expect(r.fallbackNotes.join('\n')).toMatch(/denies every Bash call instead/);
    expect(decide(text, ...bash('ls'))).toBe('deny');
    expect(decide(text, 'read', { file_path: 'a.txt' })).toBe('allow');
  });

  it('a deny rule whose tool cannot be read denies every call', () => {
    const text = json({ permissions: { deny: ['(rm)'] } });
    expect(decide(text, 'read', { file_path: 'a.txt' })).toBe('deny');
    expect(decide(text, ...bash('echo hi'))).toBe('deny');
  });

  it('a JSON syntax error keeps the deny and ask rules a laxer reading finds, and nothing that loosens', () => {
    const text = '{\n  "permissions": {\n    "deny": ["Bash(rm *)",],\n    "ask": ["Edit"],\n    "allow": ["Bash(rm *)"],\n    "defaultMode": "acceptEdits"\n  }\n}\n';
    const r = parseSettings(text, 'json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toMatchObject({ line: 3 });
    expect(r.fallback).toEqual({ permissions: { deny: ['Bash(rm *)'], ask: ['Edit'] } });
    expect(decide(text, ...bash('rm x'))).toBe('deny');
  });

  it('a file nothing can be read from denies every call until it is fixed', () => {
    const text = '{ "permissions": { "deny": [ // no\n';
    const r = parseSettings(text, 'json');
    expect(!r.ok && r.fallbackNotes[0]).toMatch(/every tool call is denied until the file is fixed/);
    expect(decide(text, 'read', { file_path: 'README.md' })).toBe('deny');
  });

  it('an unreadable disableBypassPermissionsMode still disables bypass; an unreadable mode reads as default', () => {
    const r = parseSettings(json({ permissions: { disableBypassPermissionsMode: true, defaultMode: 'yolo' } }), 'json');
    if (r.ok) throw new Error('expected errors');
    const merged = mergeSettings([
      { source: 'user', settings: { permissions: { defaultMode: 'bypassPermissions' } } },
      { source: 'project', settings: r.fallback },
    ]);
    expect(merged.mode).toBe('default');
    expect(merged.bypassDisabledBy).toBe('project');
    expect(resolveMode(merged, 'bypassPermissions').mode).toBe('default');
  });
});

describe('never looser than Claude Code reads the same files', () => {
  it('a deny or ask in any scope beats an allow in any other, managed included; managed disableBypass wins', () => {
    const scopes = [
      { source: 'managed', settings: { permissions: { allow: ['Agent'], disableBypassPermissionsMode: 'disable' as const } } },
      { source: 'user', settings: { permissions: { defaultMode: 'bypassPermissions' as const, allow: ['Bash(git push *)'] } } },
      { source: 'project', settings: loaded(json({ permissions: { deny: ['Task'], ask: ['Bash(git push *)'] }, hooks: { TaskCompleted: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] } })).settings },
    ];
    const merged = mergeSettings(scopes);
    expect(evaluateRules(callFacts('agent', { description: 'd', prompt: 'p' }, W, W), merged.rules, W).decision).toBe('deny');
    expect(evaluateRules(callFacts('bash', { command: 'git push origin' }, W, W), merged.rules, W).decision).toBe('ask');
    expect(merged.mode).toBe('default');
    expect(resolveMode(merged, 'bypassPermissions').mode).toBe('default');
  });

  it('disableAllHooks turns hooks off (managed hooks stay unless managed says it)', () => {
    const hook = { PreToolUse: [{ hooks: [{ type: 'command' as const, command: 'true' }] }] };
    const merged = mergeSettings([
      { source: 'managed', settings: { hooks: hook } },
      { source: 'project', settings: { hooks: hook, disableAllHooks: true } },
    ]);
    expect(merged.hookSources.PreToolUse).toEqual(['managed']);
    expect(mergeSettings([{ source: 'managed', settings: { hooks: hook, disableAllHooks: true } }]).hooks).toEqual({});
  });

  it('in a run: a project file with a prompt hook and a StopFailure hook keeps its deny (it was dropped whole before)', async () => {
    const base = findBuiltinScenario('layered-claude-settings')!;
    const project = json({
      permissions: { defaultMode: 'plan', deny: ['Bash(rm *)'] },
      hooks: { StopFailure: [{ hooks: [{ type: 'command', command: 'true' }] }], Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }] },
    });
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: { ...base, files: { ...base.files, '.claude/settings.json': project } }, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const { events } = await drain(input, deps);
    const read = ofType(events, 'settings.read')[0]!;
    expect(read.files.find((f) => f.scope === 'project')).toMatchObject({ ok: true, rules: 1 });
    const bashDecision = ofType(events, 'permission.decision').find((d) => d.name === 'bash')!;
    expect(bashDecision.decision).toBe('deny');
    expect(bashDecision.decidedBy.text).toMatch(/\(project\)/);
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/draft.txt`)).toBe('old draft\n');
  });
});

describe('importing a .claude/ folder with every settings key and hook event from Claude Code\'s docs', () => {
  it('loads every key and event; what is not used or not run warns; nothing is looser', () => {
    const handler = (type: string) =>
      type === 'command' ? { type, command: 'true', timeout: 5, async: false } : type === 'http' ? { type, url: 'http://127.0.0.1:1/h' } : type === 'mcp_tool' ? { type, server: 's', tool: 't' } : { type, prompt: 'judge $ARGUMENTS' };
    const settings = {
      $schema: 'https://json.schemastore.org/claude-code-settings.json',
      ...Object.fromEntries(NOT_USED_KEYS.map((k) => [k, k === 'statusLine' ? { type: 'command', command: 'x' } : 'x'])),
      env: { A: '1' },
      model: 'claude-x',
      enableAllProjectMcpServers: false,
      enabledMcpjsonServers: [],
      disabledMcpjsonServers: [],
      disableAllHooks: false,
      permissions: {
        allow: ['Bash(npm test *)', 'Agent'],
        ask: ['Bash(git push *)'],
        deny: ['Agent', 'Read(./.env)', 'WebSearch'],
        defaultMode: 'manual',
        additionalDirectories: ['../docs'],
        disableBypassPermissionsMode: 'disable',
        ...Object.fromEntries(PERMISSIONS_NOT_USED_KEYS.map((k) => [k, 'disable'])),
      },
      hooks: Object.fromEntries(CLAUDE_CODE_HOOK_EVENTS.map((e) => [e, [{ matcher: '*', hooks: CLAUDE_CODE_HOOK_TYPES.map(handler) }]])),
    };
    const imp = loadClaudeDir({ '.claude/settings.json': json(settings) });
    const problems = imp.problems.map((p) => p.message);
    // It loads (no error, only warnings), each warning with a line.
    expect(problems.every((m) => m.startsWith('warning: '))).toBe(true);
    expect(imp.problems.every((p) => p.line > 1)).toBe(true);
    expect(imp.settings).toHaveLength(1);
    const s = imp.settings[0]!.settings;
    expect(s.permissions?.defaultMode).toBe('default');
    expect(s.permissions?.deny).toEqual(['Agent', 'Read(./.env)', 'WebSearch']);
    // What warns: each unused key, each event not fired here, each handler type not run here, the tool we lack.
    for (const k of NOT_USED_KEYS) expect(problems).toContain(`warning: "${k}" is a Claude Code setting not used here (loaded, has no effect in this playground).`);
    for (const e of CLAUDE_CODE_HOOK_EVENTS.filter((x) => !(HOOK_EVENTS as readonly string[]).includes(x))) expect(problems.some((m) => m.includes(`does not fire ${e} yet`))).toBe(true);
    const typesNotRun = CLAUDE_CODE_HOOK_TYPES.filter((t) => !HOOK_TYPES_RUN_HERE.includes(t));
    expect(problems.filter((m) => /hook is loaded, not run here/.test(m))).toHaveLength(HOOK_EVENTS.length * typesNotRun.length);
    expect(problems.some((m) => /WebSearch, a Claude Code tool not available here/.test(m))).toBe(true);
    expect(problems.some((m) => /unknown/.test(m))).toBe(false);
    // The events fired here keep their command hooks.
    expect(Object.keys(s.hooks ?? {}).sort()).toEqual([...HOOK_EVENTS].sort());
    // Nothing looser: the deny beats the allow of the same tool, bypass stays disabled.
    const merged = mergeSettings([{ source: 'project', settings: s }]);
    expect(evaluateRules(callFacts('agent', { description: 'd', prompt: 'p' }, W, W), merged.rules, W).decision).toBe('deny');
    expect(resolveMode(merged, 'bypassPermissions').mode).toBe('default');
  });
});
