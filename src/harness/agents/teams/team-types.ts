/**
 * The shapes a team is made of: what a team needs from its run (`TeamRuntime`), one teammate as
 * the team keeps it between wake-ups (`Teammate`), an open protocol request, and the sink its
 * events go to. Types and defaults only, so every file of the team can import them without a cycle.
 */
import type { RunResult } from '../../loop/types.ts';
import type { Message } from '../../messages.ts';
import type { Clock, IdGen, ModelClient, Sandbox } from '../../ports.ts';
import type { FileState } from '../../tools/file-state.ts';
import type { AnyTool } from '../../tools/tool.ts';
import type { TraceEvent, TraceEventBody } from '../../trace.ts';
import type { SubagentRuntime } from '../subagents/runtime.ts';
import type { TeammateState } from './state.ts';
import type { Team } from './team.ts';
import type { TeammateIsolation, TeammateWorkspace, WorkspaceFactory } from './workspace.ts';

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_TEAMMATE_MAX_TURNS = 20;
/** How long a gone teammate's claimed tasks wait for it before they return to the board. */
export const DEFAULT_RELEASE_AFTER_MS = 30_000;

export type TeamRuntime = Pick<SubagentRuntime, 'modelFor' | 'modelId' | 'maxTokens' | 'permissions' | 'prompt' | 'sessionGrants' | 'hooks' | 'summarize' | 'collapseSummarize' | 'context' | 'deferTools'> & {
  sandbox: Sandbox;
  clock: Clock;
  ids: IdGen;
  /** Fresh base tools for one teammate (the team tools are added to them). */
  tools: () => AnyTool[];
  /** Builds teammate tools over this team (set by `teamTools`, kept here so the Team needs no import cycle). */
  teammateTools?: (team: Team, name: string) => AnyTool[];
  requestTimeoutMs?: number;
  lockStaleMs?: number;
  lockRetryMs?: number;
  maxTurns?: number;
  /** How long a gone teammate's claimed tasks wait before they return to the board. */
  releaseAfterMs?: number;
  /** How long an `in_tab` teammate waits for a tab to join as it (`presence.ts`); 0: until the run ends. */
  joinTimeoutMs?: number;
  /** Set: this tab beats every `heartbeatMs` of the Clock while it has a transport. Absent: it does not beat. */
  heartbeatMs?: number;
  /** Beats a teammate's tab may miss before the lead's tab marks it gone. */
  missedBeats?: number;
  /** False in a tab that only hosts teammates (the lead lives in another tab). Default true. */
  hostsLead?: boolean;
  /** Plugs isolated workspaces in (issue 13 §3); absent: every teammate shares the lead's sandbox. */
  workspace?: WorkspaceFactory;
  signal?: AbortSignal;
};

export type OpenRequest = { id: string; type: 'shutdown_request' | 'plan_submission'; from: string; to: string; sentAt: number; deadline: number };

export type Teammate = {
  name: string;
  agentId: string;
  state: TeammateState;
  taskId?: string;
  history: Message[];
  system: string;
  tools: AnyTool[];
  model: ModelClient;
  sandbox: Sandbox;
  files: FileState;
  autoClaim: boolean;
  isolation: TeammateIsolation;
  /** Its isolated copy while it has one (`overlay`): made at spawn, closed when it finishes, made afresh if it wakes again. */
  workspace?: TeammateWorkspace;
  /** The loop of its current wake-up, while working. */
  loop?: AsyncGenerator<TraceEvent, RunResult>;
  /** Unhooks the current wake-up's own signal from `abort` (each wake-up gets a fresh one, so listeners do not pile up). */
  unhook?: () => void;
  abort: AbortController;
  /** It approved a shutdown: it stops when this wake-up ends. */
  stopping: boolean;
  /** Its tab is gone: its loop is being drained and no state follows but `gone`. */
  leaving?: boolean;
  /** It runs in another tab: this team only mirrors its state and forwards its mail ('' until a tab joins as it). */
  remoteTab?: string;
  /** Joined across tabs: the copy of the working tree it started from (both tabs keep it: offers are diffs against it). */
  tabBase?: Record<string, string>;
  /** In the lead's tab: the paths its latest offer changed. */
  offered?: Set<string>;
  /** Spawned `in_tab` and no tab joined yet: when it stops waiting (on the Clock). */
  joinDeadline?: number;
  /** In its own tab: it asked the lead's tab for a task and waits for the answer. */
  claimAsked?: boolean;
  seq: number;
  toolUses: number;
  /** Why its state last moved (the end-of-run report quotes it). */
  lastWhy?: string;
};

export type Sink = (event: TraceEvent | TraceEventBody) => Promise<void>;

export type SpawnRequest = { name: string; prompt: string; autoClaim?: boolean; isolation?: TeammateIsolation; system?: string; inTab?: boolean };

/** A gone teammate's tasks wait for it until `deadline` (on the Clock), then return to the board. */
export type PendingRelease = { name: string; agentId: string; deadline: number; afterMs: number; why: string };
