/**
 * What the `agent` tool needs from the run that owns it to start a child: the definitions, a model
 * client per child, the parent's tool pool, permission context, prompter and hooks. Built once per
 * run (by the scenario runner or a test); the tool itself holds nothing else.
 */
import type { ContextSettingsInput } from '../../context/settings.ts';
import type { Summarize } from '../../context/summarizer.ts';
import type { CollapseSummarize } from '../../context/collapse-model.ts';
import type { LoopHooks } from '../../loop/hook-site.ts';
import type { Prompter } from '../../loop/run-tools.ts';
import type { SessionGrants } from '../../permissions/session-grants.ts';
import type { PermissionContext, PermissionMode } from '../../permissions/types.ts';
import type { ModelClient } from '../../ports.ts';
import type { AnyTool } from '../../tools/tool.ts';
import type { DefinitionProblem, SubagentDefinition } from './definitions.ts';
import type { ModelAliasOverrides } from './model-alias.ts';

/** Who a model client is for; a scripted model picks the child's script by these. */
export type ChildModelRequest = { agentId: string; description: string; subagentType: string; model?: string };

export type SubagentRuntime = {
  definitions: readonly SubagentDefinition[];
  /** Definition files that did not load (shown to the model in the tool description, and in the UI). */
  problems: readonly DefinitionProblem[];
  /** A model client for one child, or why there is none (e.g. a scripted model without its turns). */
  modelFor: (child: ChildModelRequest) => ModelClient | { error: string };
  /** The parent's model id (children whose definition says nothing, or `inherit`, use it). */
  modelId: string;
  /** Where the environment retargets the model aliases or sets every subagent's model (`model-alias.ts`). */
  modelAliases?: ModelAliasOverrides;
  maxTokens: number;
  /** Fresh instances of the tools a child may be given (the parent's pool, without `agent`). */
  tools: () => AnyTool[];
  permissions: PermissionContext;
  prompt?: Prompter;
  sessionGrants?: SessionGrants;
  hooks?: LoopHooks;
  summarize?: Summarize;
  /** Writes collapse summaries with a model (live runs); absent: the deterministic summary. */
  collapseSummarize?: CollapseSummarize;
  context?: ContextSettingsInput;
  /** The parent defers tools (`loop/deferred-tools.ts`): a child sends its core tools plus `tool_search` too. */
  deferTools?: boolean;
  /** How deep the agent owning this tool is: 0 for the main agent. */
  depth: number;
};

/** A subagent may start subagents only when its definition lists `agent`, and never deeper than this. */
export const MAX_AGENT_DEPTH = 3;

const PERMISSIVENESS: Record<PermissionMode, number> = { plan: 0, dontAsk: 0, default: 1, acceptEdits: 2, bypassPermissions: 3 };

/**
 * The child's mode: its definition's when that is no more permissive than the parent's, else the
 * parent's. A definition is a file in the sandbox the model itself could have written, so it may
 * narrow what a child can do but never widen it.
 */
export function childMode(parent: PermissionMode, wanted: PermissionMode | undefined): { mode: PermissionMode; note?: string } {
  if (!wanted || wanted === parent) return { mode: parent };
  if (PERMISSIVENESS[wanted] <= PERMISSIVENESS[parent]) return { mode: wanted };
  return { mode: parent, note: `its definition asks for ${wanted}, which is more permissive than the parent's ${parent}; it runs in ${parent}` };
}
