/** The permission engine's public surface (see README.md). */
export * from './types.ts';
export { parseRule, canonicalToolName, toolsCoveredBy, ruleNamesTool, isBareRule } from './rules.ts';
export { lexerShellParser, type ShellParser, type ShellParse, type SimpleCommand, type ShellWord, type ShellRedirect } from './shell-parser.ts';
export { analyzeCommand, matchBashSpecifier, isReadOnlyPart, READ_ONLY_COMMANDS, type CommandPart } from './bash-command.ts';
export { matchPathPattern } from './path-match.ts';
export { callFacts, type CallFacts } from './call-facts.ts';
export { evaluateRules, describeRule, type RulesVerdict, type PartVerdict, type Need } from './evaluate.ts';
export { modeStage, protectedReasons, isReadOnlyCall, PLAN_MODE_MESSAGE } from './modes.ts';
export { judge, type JudgeResult } from './judge.ts';
export { prefilterTools, type PrefilterResult } from './prefilter.ts';
export { SessionGrants, suggestRules } from './session-grants.ts';
export { permissionPipeline, HEADLESS_DENY, type PipelineEnv, type PipelineResult, type HookVerdict, type PromptRequest, type PromptAnswer } from './pipeline.ts';
export { whatIf, type WhatIfResult } from './what-if.ts';
export { isSecretFile, protectedPathReason } from './secret-files.ts';
export { splitToolList } from './tool-list.ts';
/** The linear-time engine tier patterns run on (`util/safe-regex.ts`), for editors that check a pattern as it is typed. */
export { compileSafeRegex } from '../util/safe-regex.ts';
