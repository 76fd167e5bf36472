/**
 * What "Export .claude/" packs: the live sandbox's files once a run has started (the agent's and
 * your edits included), else the scenario's own files; their project and local settings (a file
 * that does not parse is left out and said so); the scenario's settings folded into the project's.
 */
import { exportClaudeDir, type ClaudeDirExport } from '../../harness/claude-dir/index.ts';
import { LOCAL_SETTINGS, PROJECT_SETTINGS } from '../../harness/claude-dir/index.ts';
import { parseSettings } from '../../harness/settings/index.ts';
import type { Settings } from '../../harness/settings/index.ts';
import { harnessSettingsOf, type Scenario } from '../../scenarios/schema.ts';

export function exportCurrent(scenario: Scenario, files: Readonly<Record<string, string>>): ClaudeDirExport {
  const notes: string[] = [];
  const parsed = (path: string): Settings | undefined => {
    const text = files[path];
    if (text === undefined) return undefined;
    const r = parseSettings(text, 'json');
    if (r.ok) return r.settings;
    notes.push(`${path}: left out, not valid settings (line ${r.errors[0]!.line}: ${r.errors[0]!.message})`);
    return undefined;
  };
  const project = parsed(PROJECT_SETTINGS);
  const local = parsed(LOCAL_SETTINGS);
  const out = exportClaudeDir({ scenarioSettings: harnessSettingsOf(scenario), ...(project ? { project } : {}), ...(local ? { local } : {}), files });
  return { files: out.files, leftOut: [...notes, ...out.leftOut] };
}
