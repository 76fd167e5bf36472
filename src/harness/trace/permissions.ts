/**
 * Trace events of the permission pipeline (see `src/harness/permissions/README.md`): tools a bare
 * deny hides from the model, each stage run for a tool call, the prompt to a person, and the final
 * decision (the audit record). Joined into `TraceEvent` in `../trace.ts`.
 */
import type { DecidedBy, StageDecision, StageName } from '../permissions/types.ts';

/** The permission pipeline's events. */
export type PermissionEventBody =
  | {
      /** Tools removed from the model's view by a bare deny rule; emitted once per run when any are. */
      type: 'permission.prefilter';
      hidden: { name: string; rule: string }[];
      visible: string[];
    }
  | {
      /** One stage of the permission pipeline ran for a tool call (in order; a stage may end it). */
      type: 'permission.stage';
      toolUseId: string;
      name: string;
      stage: StageName;
      decision: StageDecision;
      reason: string;
      decidedBy?: DecidedBy;
    }
  | {
      /** The pipeline is about to ask a person; `suggestions` are what "allow for this session" adds. */
      type: 'permission.prompt';
      toolUseId: string;
      name: string;
      input: unknown;
      reason: string;
      suggestions: string[];
    }
  | {
      /** The pipeline's final word on a tool call: the audit record. */
      type: 'permission.decision';
      toolUseId: string;
      name: string;
      decision: 'allow' | 'deny';
      stage: StageName;
      reason: string;
      decidedBy: DecidedBy;
    };
