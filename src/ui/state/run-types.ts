/**
 * The words the run controller and its helpers share: a run's status, how a pull loop drives,
 * how a run starts, and the hooks the page gives the controller at construction. No state lives here.
 */
import type { Message, ModelClient, RunResult, Sandbox, TraceEvent } from '../../harness/index.ts';
import type { SandboxSnapshot } from '../../harness/session/light.ts';
import type { Workbench } from '../sessions/workbench-record.ts';

export type RunStatus = 'idle' | 'running' | 'paused' | 'done' | 'error' | 'aborted';

/** How the current pull loop should behave; changed from outside while it runs. */
export type DriveMode = 'step' | 'run' | 'pause' | 'drain';

export type SandboxInfo = { kind: string; reason: string };

/** The files as they were at an earlier event (step back), or why they cannot be shown. */
export type FilesAt = { snapshot: SandboxSnapshot } | { unavailable: string };

/** A breakpoint test: the event just pulled and its log seq (1-based across runs). */
export type StopWhen = (event: TraceEvent, logSeq: number) => boolean;

/** How a run starts: a prompt (and earlier history), or a fork's whole history and model. */
export type StartOptions = { prompt?: string; history?: Message[]; messages?: Message[]; model?: ModelClient };

/**
 * Wraps a run's generator (the session recording persists it); must yield the same events.
 * `workbench()` is the page's scenario and its origin when asked (a new session is titled by it).
 */
export type RunWrapper = (
  run: AsyncGenerator<TraceEvent, RunResult>,
  info: { sandbox: Sandbox; newConversation: boolean; prompt: string; workbench: () => Workbench },
) => AsyncGenerator<TraceEvent, RunResult>;

/**
 * What the controller asks of the session store's side (`SessionRecording`, built before the
 * controller): it knows nothing of sessions beyond this.
 */
export interface RunSessionPort {
  /** Records every run. */
  wrapRun: RunWrapper;
  /** The sandbox files as of the `count`-th event (the Files panel when stepped back), from the session log's snapshots. */
  filesAt(count: number): Promise<FilesAt>;
  /** The id of the session being recorded, if any (memory origins). */
  sessionId(): string | undefined;
  /** Told at the start of every reset: the current session ends (unless a session is being opened). */
  runReset(): void;
  /** A user event (an edit, a terminal command) to write to the log with its snapshot of `sandbox`. */
  recordUserEvent(event: TraceEvent, sandbox: Sandbox | null): Promise<void>;
  /** The scenario was edited in the page: the session records the new workbench. */
  scenarioEdited(workbench: Workbench): void;
}

/**
 * What the page gives the run controller at construction, all optional (a teammate tab or a test
 * gives none). Written once, in `page-state.svelte.ts`; nothing assigns them later.
 */
export type RunHooks = {
  /** Records runs into the session store. */
  session?: RunSessionPort;
  /** Wraps every live client before a run uses it (the stepper's recorder). */
  wrapLive?: (client: ModelClient) => ModelClient;
  /** Why pulling the next event must wait (a lesson question), given the log length; null: it need not. */
  hold?: (logLength: number) => string | null;
  /** The scenario's next prompt, offered (pre-filled) once a run has ended (the lesson). */
  followUp?: () => string | null;
  /**
   * When the restored session is a run a reload cut off and its replay is deterministic (a built-in
   * script): the replay that plays it again to where it was cut and pauses there. Step and Run start with it.
   */
  replayCut?: () => (() => Promise<void>) | null;
  /** A stored session is on screen (the lesson restores its answers). */
  restored?: (events: TraceEvent[]) => void;
};

export const ENDED: readonly RunStatus[] = ['done', 'error', 'aborted'];

/** Where a run that returned `result` leaves the status. */
export function statusFor(result: RunResult): RunStatus {
  if (result.reason === 'aborted') return 'aborted';
  if (result.reason === 'model_error') return 'error';
  return 'done';
}

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Where the sandbox's working directory is (the same for every sandbox). */
export const WORKDIR = '/home/project';
