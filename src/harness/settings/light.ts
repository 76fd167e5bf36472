/**
 * The settings folder's light entry point: merging already-parsed settings into a permission
 * context, without the settings schema and parser (zod, yaml), which load with the document engines.
 */
export type { Settings, YamlTierRule } from './schema.ts';
export { mergeSettings, settingsRules, permissionContextOf, resolveMode, BYPASS_SCOPES, SCOPE_ORDER, type ScopedSettings, type SettingsScope, type MergedSettings } from './merge.ts';
