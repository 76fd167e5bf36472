/** A real `.claude/` setup: import (classify, parse, report by file and line), read at run start, export. */
export { classifyPath, stripPickedRoot, USER_PREFIX, PROJECT_SETTINGS, LOCAL_SETTINGS, type ClaudeFileKind } from './paths.ts';
export { loadClaudeDir, type ClaudeDirImport, type ClaudeDirProblem, type ScopeFile } from './load.ts';
export { effectiveRows, type EffectiveRow } from './effective.ts';
export { readSandboxSettings, type SandboxSettings, type SettingsFileRead } from './sandbox-settings.ts';
export { exportClaudeDir, foldSettings, zipFiles, SETTINGS_SCHEMA_URL, type ClaudeDirExport, type ExportInput } from './export.ts';
