/**
 * Everything one conversation of the run controller owns, in one object: the event log, the
 * generator being pulled, the sandbox, what the agent has read, the answers given on the way.
 * `RunController.reset()` replaces the whole object (`new RunState()`), so no field of the old
 * conversation can survive a reset by being forgotten; a new field added here is reset for free.
 *
 * The object is also the pull loop's epoch: an await that comes back to find
 * `ctl.state !== run` belongs to a conversation that was thrown away, and writes nothing.
 */
import type { ModelClient, RunResult, Sandbox, TraceEvent } from '../../harness/index.ts';
import { FileState } from '../../harness/tools/light.ts';
import { AsyncHookInbox } from '../../harness/hooks/light.ts';
import { SessionGrants, type PermissionContext } from '../../harness/permissions/index.ts';
import type { DocumentLiveContext } from '../../run/live-context.ts';
import type { TabChannel } from '../team/tab-link.ts';
import { SteeringBox } from './steering.svelte.ts';
import type { DriveMode, RunStatus, SandboxInfo, StartOptions } from './run-types.ts';

export class RunState {
  // What the panels render (reactive).
  status = $state<RunStatus>('idle');
  /** Every event of the session (follow-up runs append), immutable for cheap reactivity. */
  events = $state.raw<TraceEvent[]>([]);
  result = $state.raw<RunResult | null>(null);
  sandbox = $state.raw<Sandbox | null>(null);
  sandboxInfo = $state.raw<SandboxInfo | null>(null);
  /** What slow thing is happening before the first event ("Booting sandbox…"), or ''. */
  phase = $state('');
  /** A pull (or the start of a run) is in flight. */
  busy = $state(false);
  /** Why the last action could not happen, in words that say what to do. */
  notice = $state<string | null>(null);
  /** A stored session another tab is writing is shown: nothing runs here (SessionManager). */
  readOnly = $state(false);
  /** Step back: how many events the panels show (null: all of them). Moved by the stepper. */
  cursor = $state<number | null>(null);
  /** After "take over", runs use the live model even in scripted mode. */
  takenOver = $state(false);
  /** The question about what an untrusted document brings into a live run, and the run that waits for it. */
  liveContext = $state.raw<{ brings: DocumentLiveContext; pending: StartOptions; mode: DriveMode } | null>(null);
  /** The granted "allow for this session" rules, for display (SessionGrants itself is not reactive). */
  grantedRules = $state.raw<string[]>([]);
  /** While a Run pulls: how many events so far and which agent yielded the last one (RunStatus). */
  progress = $state.raw<{ pulled: number; agentId: string } | null>(null);
  /** The run's team on a tab channel (other tabs join its `in_tab` teammates); null without a team. */
  teamTabs = $state.raw<TabChannel | null>(null);

  // The pull loop (run-puller.ts).
  gen: AsyncGenerator<TraceEvent, RunResult> | null = null;
  abort: AbortController | null = null;
  mode: DriveMode = 'step';
  /** Pulled events not yet on screen (they reach `events` in batches). */
  buffer: TraceEvent[] = [];

  // What follow-up runs of this conversation carry over (start-run.ts).
  /** "Allow for this session" rules of this conversation; the pipeline adds to them. */
  readonly grants = new SessionGrants();
  /** Messages typed while a run works, delivered by the loop at its next safe point. */
  readonly steering = new SteeringBox();
  /** Background hooks belong to the conversation: one of an old conversation never reports into it. */
  readonly asyncHooks = new AsyncHookInbox();
  /** What the agent has read and snapshotted. */
  readonly files = new FileState();
  /** A restored log whose reads `files` has not learnt yet (see `restore-reads.ts`). */
  seenToRestore: readonly TraceEvent[] | null = null;
  /** The sandbox of this conversation, booting or booted (null when it failed). */
  sandboxReady: Promise<Sandbox | null> | null = null;
  /** The memory text of the conversation's first run, reused by its follow-ups. */
  memoryText: string | undefined = undefined;
  /** SessionStart source of the next run, once: a resumed or forked session. */
  nextSessionStart: 'resume' | 'fork' | null = null;
  /** The model client of the latest run: a fork or the scenario's next prompt continues its script. */
  lastModel: ModelClient | null = null;
  /** The answer to `liveContext` for this document: use what it brings, or drop it. */
  liveContextAnswer: 'use' | 'drop' | null = null;
  /** The permission context the latest run was prepared with (what-if starts from it). */
  runPermissions: PermissionContext | null = null;
}
