/**
 * The words the run controller and its helpers share: a run's status, how a pull loop drives,
 * how a run starts, and the hooks the session manager plugs in. No state lives here.
 */
import type { Message, ModelClient, RunResult, Sandbox, TraceEvent } from '../../harness/index.ts';
import type { SandboxSnapshot } from '../../harness/session/index.ts';

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

/** Wraps a run's generator (the session manager persists it); must yield the same events. */
export type RunWrapper = (
  run: AsyncGenerator<TraceEvent, RunResult>,
  info: { sandbox: Sandbox; newConversation: boolean; prompt: string },
) => AsyncGenerator<TraceEvent, RunResult>;

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
