/**
 * The rules and mode the next call of a conversation would be judged by (trust applied, session
 * grants added): the starting point of what-if. Once a run has started, the rules it really uses.
 */
import type { PermissionContext, PermissionMode } from '../../harness/permissions/index.ts';
import { mergeSettings, permissionContextOf } from '../../harness/settings/light.ts';
import { applyTrust } from '../../harness/trust/light.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { harnessSettingsOf } from '../../scenarios/shape.ts';
import { pageShellParser } from './page-shell-parser.ts';
import type { RunState } from './run-state.svelte.ts';
import { WORKDIR } from './run-types.ts';

export function permissionContextNow(ctl: { state: RunState; scenario: Scenario; modeOverride: PermissionMode | null; trust: { trusted: boolean } }): PermissionContext {
  const { runPermissions: run, grants, sandbox } = ctl.state;
  // devkit: once a run has started, the rules it really uses (the sandbox's .claude/ settings, an imported user scope).
  if (run) return { ...run, mode: ctl.modeOverride ?? run.mode, rules: [...run.rules, ...grants.rules] };
  const settings = applyTrust(harnessSettingsOf(ctl.scenario), ctl.trust.trusted);
  const merged = mergeSettings([{ source: 'scenario', settings }]);
  const ctx = permissionContextOf(merged, sandbox?.workdir ?? WORKDIR, ctl.modeOverride ? { mode: ctl.modeOverride } : {});
  // Judged as a run would judge it: on just-bash's parse tree (a restored session's calls have no
  // run, and the what-if waits for the parser to load), not on our lexer.
  const shell = sandbox && sandbox.kind !== 'just-bash' ? {} : { shell: pageShellParser() };
  return { ...ctx, ...shell, rules: [...ctx.rules, ...grants.rules] };
}
