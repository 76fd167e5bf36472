/**
 * The run's on-demand modules (src/ui/state/run-modules.ts): a run awaits the JS hook runner and the
 * page tool runner only when its scenario can use them, so the default scenario's first Step loads neither.
 */
import { describe, expect, it } from 'vitest';
import { builtinScenarios } from '../../src/scenarios/library/index.ts';
import { needsJsHooks, needsToolRunner, type RunNeeds } from '../../src/ui/state/run-modules.ts';
import type { Scenario } from '../../src/scenarios/schema.ts';

const needsOf = (s: Scenario, extra: Partial<RunNeeds> = {}): RunNeeds => ({
  settings: s.settings,
  files: s.files,
  live: false,
  customTools: s.settings.customTools?.length ?? 0,
  ...extra,
});
const first = builtinScenarios[0]!;
const jsHook = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'js' as const, name: 'guard', code: 'return {}' }] }] };

describe('which on-demand modules a run needs', () => {
  it('the default scenario needs neither runner in a scripted run', () => {
    expect(needsJsHooks(needsOf(first))).toBe(false);
    expect(needsToolRunner(needsOf(first))).toBe(false);
  });

  it('a js hook in the scenario settings, a project .claude/settings.json, an agent file or the user scope needs the hook runner', () => {
    expect(needsJsHooks(needsOf({ ...first, settings: { ...first.settings, hooks: jsHook } } as Scenario))).toBe(true);
    const settingsFile = { '.claude/settings.json': JSON.stringify({ hooks: jsHook }, null, 2) };
    expect(needsJsHooks(needsOf(first, { files: settingsFile }))).toBe(true);
    const agent = { '.claude/agents/a.md': '---\nname: a\nhooks:\n  PreToolUse:\n    - hooks:\n        - type: js\n          code: return {}\n---\nbody' };
    expect(needsJsHooks(needsOf(first, { files: agent }))).toBe(true);
    expect(needsJsHooks(needsOf(first, { userSettings: { hooks: jsHook } }))).toBe(true);
  });

  it('a command hook or a "json" value does not count as a js hook', () => {
    const command = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo "type": "json"' }] }] };
    expect(needsJsHooks(needsOf(first, { settings: { hooks: command } }))).toBe(false);
  });

  it('custom tools or a live run (tools saved mid-run join it) need the tool runner', () => {
    const withTool = builtinScenarios.find((s) => s.settings.customTools?.length);
    expect(withTool).toBeDefined();
    expect(needsToolRunner(needsOf(withTool!))).toBe(true);
    expect(needsToolRunner(needsOf(first, { live: true }))).toBe(true);
  });
});
