/**
 * The vocabulary of the permission engine: modes, rules with their source, and the decisions
 * each stage of the pipeline makes. Everything here is plain JSON so it can travel in traces.
 */

import type { ShellParser } from './shell-parser.ts';

/** Claude Code's permission modes. */
export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export type RuleBehavior = 'allow' | 'deny' | 'ask';

/** Where a rule came from, kept for "which rule decided" displays. */
export type RuleSource = 'managed' | 'cli' | 'local' | 'project' | 'user' | 'session' | (string & {});

/**
 * A parsed rule. `tool` rules use Claude Code's syntax (`Bash(npm test *)`, `Read(./.env)`,
 * `mcp__server__tool`); `regex` rules are seed 003's YAML tiers, matched against a one-line summary
 * of the call.
 */
export type PermissionRule =
  | {
      kind: 'tool';
      /** As written, with Claude Code's capitalisation for the built-in names (`Bash`, `Edit`, …). */
      tool: string;
      /** The text inside the parentheses; absent for a bare rule (and for `Tool(*)`). */
      specifier?: string;
      /** The rule as written. */
      text: string;
    }
  | {
      kind: 'regex';
      pattern: string;
      /** Restricts the rule to tools whose name matches this regex (case-insensitive). */
      tool?: string;
      reason?: string;
      text: string;
    };

export type SourcedRule = { behavior: RuleBehavior; source: RuleSource; rule: PermissionRule };

export type StageName = 'prefilter' | 'validate' | 'tool_check' | 'hooks' | 'rules' | 'mode' | 'prompt';

export type StageDecision = 'allow' | 'deny' | 'ask' | 'passthrough';

export type DecidedBy = {
  kind: 'rule' | 'hook' | 'mode' | 'tool' | 'user' | 'readonly' | 'default';
  /** The rule text, hook, mode name … that made the decision. */
  text: string;
};

/** One stage's verdict, as shown in the stage strip. */
export type StageResult = {
  stage: StageName;
  decision: StageDecision;
  reason: string;
  decidedBy?: DecidedBy;
};

/** The rules and mode in force for one call, after scopes were merged and trust applied. */
export type PermissionContext = {
  mode: PermissionMode;
  /** Every rule from every scope, in precedence order; session grants may be appended. */
  rules: readonly SourcedRule[];
  /** The working directory that "inside the workdir" refers to (also `~` in rules). */
  workdir: string;
  /** Where relative paths in the call resolve; defaults to `workdir`. */
  cwd?: string;
  /**
   * Directories outside `workdir` that reads may reach without asking (settings
   * `permissions.additionalDirectories`; `~` is the home directory, relative paths are from the workdir).
   */
  additionalDirectories?: readonly string[];
  /**
   * Splits bash commands into the simple commands they run: the executor's own parser when the
   * composition root bound one (`src/run/README.md`), else our lexer. Not JSON: a context that
   * travels in a trace leaves it out.
   */
  shell?: ShellParser;
};

/** A tool call as the permission engine sees it. */
export type CallRef = { toolUseId: string; name: string; input: unknown };
