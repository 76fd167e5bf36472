/**
 * Hook events about the session's files: InstructionsLoaded when the memory files (CLAUDE.md and
 * their `@imports`) are loaded at a session's start, and ConfigChange when a settings file changes
 * while the run works. Both are Claude Code's; here settings are read at a run's start, so a
 * ConfigChange hook that blocks only reports (the change takes effect at the next run either way).
 */
import type { HookPayload } from '../hooks/input.ts';
import type { TraceEventBody } from '../trace.ts';
import { fireHook, type HookSiteEnv } from './hook-site.ts';

type MemoryFile = { path: string; importedFrom?: string };

/** Claude Code's memory type of a memory file, by where it lives. */
export function memoryTypeOf(path: string): 'User' | 'Project' | 'Local' | 'Managed' {
  if (/\/CLAUDE\.local\.md$/.test(path)) return 'Local';
  if (/(^|\/)\.claude\/CLAUDE\.md$/.test(path) && /^\/(home|root)\/[^/]+\/\.claude\//.test(path) && !path.startsWith('/home/project/')) return 'User';
  return 'Project';
}

export async function* instructionsLoaded(files: readonly MemoryFile[], hooks: HookSiteEnv): AsyncGenerator<TraceEventBody> {
  for (const f of files) {
    const payload: HookPayload = {
      event: 'InstructionsLoaded',
      filePath: f.path,
      memoryType: memoryTypeOf(f.path),
      loadReason: f.importedFrom ? 'include' : 'session_start',
      ...(f.importedFrom ? { parentFilePath: f.importedFrom } : {}),
    };
    yield* fireHook(payload, hooks);
  }
}

/** The settings files Claude Code watches, relative to the working directory, and their source. */
const SETTINGS_FILES: Record<string, 'project_settings' | 'local_settings'> = {
  '.claude/settings.json': 'project_settings',
  '.claude/settings.local.json': 'local_settings',
};

export async function* configChanged(paths: readonly string[], workdir: string, hooks: HookSiteEnv): AsyncGenerator<TraceEventBody> {
  for (const path of paths) {
    const source = SETTINGS_FILES[path.startsWith(`${workdir}/`) ? path.slice(workdir.length + 1) : path];
    if (source) yield* fireHook({ event: 'ConfigChange', source, filePath: path }, hooks);
  }
}
