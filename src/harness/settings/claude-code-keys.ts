/**
 * Claude Code's settings keys and how this playground treats each: used (modelled here), or
 * accepted but not used here (listed in the import report, never silently dropped). A key in
 * neither list is unknown: a warning that names it, the rest of the file still loads.
 */

/** Top-level keys the harness reads. */
export const USED_KEYS: readonly string[] = [
  '$schema',
  'permissions',
  'hooks',
  'env',
  'model',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'disabledMcpjsonServers',
  'disableAllHooks',
  // seed 003's YAML tiers
  'always_deny',
  'always_allow',
  'ask_user',
];

/** Claude Code's documented keys that have no meaning in the playground (a browser sandbox, no login, no terminal UI). */
export const NOT_USED_KEYS: readonly string[] = [
  'apiKeyHelper', 'attribution', 'allowedHttpHookUrls', 'allowedMcpServers', 'allowManagedHooksOnly', 'allowManagedPermissionRulesOnly',
  'alwaysThinkingEnabled', 'autoMemoryEnabled', 'autoUpdatesChannel', 'availableModels', 'awsAuthRefresh', 'awsCredentialExport',
  'claudeMdExcludes', 'cleanupPeriodDays', 'companyAnnouncements', 'deniedMcpServers', 'effortLevel', 'enabledPlugins',
  'extraKnownMarketplaces', 'fileSuggestion', 'forceLoginMethod', 'forceLoginOrgUUID', 'httpHookAllowedEnvVars', 'includeCoAuthoredBy',
  'includeGitInstructions', 'language', 'otelHeadersHelper', 'outputStyle', 'plansDirectory', 'prefersReducedMotion', 'respectGitignore',
  'sandbox', 'showTurnDuration', 'skipWebFetchPreflight', 'spinnerTipsEnabled', 'spinnerVerbs', 'statusLine', 'strictKnownMarketplaces',
  'teammateMode', 'terminalProgressBarEnabled', 'worktree',
];

/** `permissions.*` keys the harness models. */
export const PERMISSIONS_KEYS: readonly string[] = ['allow', 'ask', 'deny', 'defaultMode', 'additionalDirectories', 'disableBypassPermissionsMode'];

/** `permissions.*` keys Claude Code documents that have nothing to act on here. */
export const PERMISSIONS_NOT_USED_KEYS: readonly string[] = ['disableAutoMode', 'skipDangerousModePermissionPrompt'];

/** `defaultMode` values Claude Code accepts that are spelled differently here (`manual` is Claude Code's alias of `default`). */
export const MODE_ALIASES: Readonly<Record<string, string>> = { manual: 'default' };

/** Claude Code modes with no counterpart here: the key is left out (the next scope's mode, or default, applies). */
export const MODES_NOT_HERE: readonly string[] = ['auto'];
