/** Custom tools: definitions, building them into `Tool`s, and the extra-tools seam. See README.md. */
export {
  customToolSchema,
  customToolsSchema,
  parseCustomTool,
  TOOL_NAME_PATTERN,
  RESERVED_TOOL_NAMES,
  DEFAULT_CUSTOM_TOOL_TIMEOUT_MS,
  MAX_CUSTOM_TOOL_TIMEOUT_MS,
  type CustomToolDefinition,
  type CustomToolInput,
  type CustomToolParse,
} from './definition.ts';
export { checkInputSchema, type SchemaIssue } from './json-schema-check.ts';
export { customTool, type CustomToolEnv } from './build.ts';
export { FILE_API_LIMITS, projectFiles, type FileApiLimits, type ProjectFiles } from './files-api.ts';
export { withExtraTools, type ExtraToolSource, type PoolWithExtras } from './extra-tools.ts';
