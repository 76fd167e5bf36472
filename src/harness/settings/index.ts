/** Settings: schema, parsing with line-numbered errors, and scope merging. */
export { settingsSchema, permissionsSettingsSchema, yamlTierRuleSchema, type Settings, type YamlTierRule } from './schema.ts';
export { parseSettings, type ParsedSettings, type SettingsError } from './parse.ts';
export { mergeSettings, settingsRules, permissionContextOf, resolveMode, BYPASS_SCOPES, SCOPE_ORDER, type ScopedSettings, type SettingsScope, type MergedSettings } from './merge.ts';
