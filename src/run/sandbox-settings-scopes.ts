/**
 * The settings scopes a run reads from its sandbox at start (`readSandboxSettings`), minus any
 * scope the caller already passed in, and the `settings.read` event that reports them (only when
 * there was a file to read, so a scenario without `.claude/` logs nothing new).
 */
import type { Sandbox } from '../harness/ports.ts';
import type { TraceEventBody } from '../harness/trace.ts';
import { readSandboxSettings } from '../harness/claude-dir/index.ts';
import { SCOPE_ORDER, type ScopedSettings } from '../harness/settings/index.ts';

export type SandboxScopes = { scopes: ScopedSettings[]; event?: Extract<TraceEventBody, { type: 'settings.read' }> };

export async function sandboxSettingsScopes(sandbox: Sandbox, given: readonly ScopedSettings[], trusted: boolean): Promise<SandboxScopes> {
  const read = await readSandboxSettings(sandbox.fs, sandbox.workdir, new Set(given.map((g) => g.source)));
  if (read.read.length === 0) return { scopes: [] };
  const all = [...given.map((g) => g.source), ...read.scopes.map((s) => s.source), 'scenario'];
  const rank = (s: string) => {
    const i = (SCOPE_ORDER as readonly string[]).indexOf(s);
    return i === -1 ? SCOPE_ORDER.indexOf('project') + 0.5 : i;
  };
  return { scopes: read.scopes, event: { type: 'settings.read', files: read.read, scopes: [...new Set(all)].sort((a, b) => rank(a) - rank(b)), trusted } };
}
