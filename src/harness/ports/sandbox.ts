/**
 * The sandbox port: `Sandbox` (commands and files where the agent works), `SandboxFs`, their
 * options, results and error, and the working and home directories every sandbox shares. The git
 * the harness drives is in `git.ts`. Re-exported by `../ports.ts`.
 */
import type { SandboxKind } from '../leaf-types.ts';
import type { SandboxGit } from './git.ts';

/** Every sandbox uses this working directory, so scenarios and traces are portable. */
export const WORKDIR = '/home/project';

/**
 * The sandbox user's home directory (`HOME` for every command, `~` in permission rules): separate
 * from the project, as on a real machine, so `~/.ssh/id_rsa` is outside the working directory.
 */
export const HOME_DIR = '/home/user';

export type ExecOptions = {
  /** Absolute directory; defaults to {@link WORKDIR}. */
  cwd?: string;
  env?: Record<string, string>;
  /** Wall-clock limit; on expiry the command is stopped and the result has `timedOut`, exit 124. */
  timeoutMs?: number;
  /** When fired the command is stopped and the result has `aborted`, exit 130. */
  signal?: AbortSignal;
  /** Text fed to the command's standard input (hooks read their JSON input from here). */
  stdin?: string;
  /** Output as it arrives, for streaming into the UI. May be called after in batches. */
  onOutput?: (chunk: { stream: 'stdout' | 'stderr'; text: string }) => void;
  /** Keep at most this many characters of each stream (head + tail); default 30,000. */
  maxOutputChars?: number;
};

export type ExecResult = {
  stdout: string;
  stderr: string;
  /** 0 success; 124 timed out; 126 limit exceeded; 127 command not found; 130 aborted. */
  exitCode: number;
  timedOut: boolean;
  aborted: boolean;
  /** True when either stream was cut to head + tail; the cut is marked in the text. */
  truncated: boolean;
};

export type FileStat = { kind: 'file' | 'dir'; size: number; mtimeMs: number };

export type DirEntry = { name: string; kind: 'file' | 'dir' };

/** Raised by {@link SandboxFs} methods; `code` follows POSIX (ENOENT, EISDIR, ENOTDIR, EEXIST …). */
export class SandboxFsError extends Error {
  constructor(
    readonly code: string,
    readonly path: string,
    message?: string,
  ) {
    super(message ?? `${code}: ${path}`);
    this.name = 'SandboxFsError';
  }
}

/**
 * File operations on the sandbox's file system. Paths are absolute (or relative to
 * {@link WORKDIR}). Methods reject with {@link SandboxFsError} on failure; callers that face the
 * model (tools) catch it and turn it into an error result.
 */
export interface SandboxFs {
  readFile(path: string): Promise<string>;
  /** Creates missing parent directories. */
  writeFile(path: string, content: string): Promise<void>;
  /** Entries of one directory, sorted by name. */
  list(dir: string): Promise<DirEntry[]>;
  /** `null` when nothing is at `path`. */
  stat(path: string): Promise<FileStat | null>;
  mkdir(path: string, opts?: { recursive?: boolean }): Promise<void>;
  rm(path: string, opts?: { recursive?: boolean; force?: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /**
   * The absolute path `path` really names, with every symbolic link on it resolved (POSIX
   * `realpath`, component by component), so a caller can confine access to a folder: after
   * `ln -s /home/user homelink`, `homelink/x` is `/home/user/x`. Unlike POSIX it does not reject
   * when the path does not exist: the part that does not exist is kept as written (a dangling
   * link is replaced by its target), so a write target is checked before it is created. Rejects
   * `ELOOP` for a link cycle. An implementation that cannot see links rejects (`ENOTSUP`) for a
   * path it cannot vouch for rather than answer lexically — callers treat a rejection as "refuse".
   */
  realpath(path: string): Promise<string>;
  /**
   * Calls `listener` after any change made through this sandbox (fs or exec). Returns an
   * unsubscribe function. Changes are coalesced; the listener re-reads what it needs.
   */
  watch(listener: (event: { paths: string[] }) => void): () => void;
}

/** What a sandbox can promise beyond the common contract. */
export type SandboxCapabilities = {
  /**
   * An abort stops even a busy loop at once (another thread or process runs the commands, so
   * the caller's signal is seen while the loop spins). False for a sandbox that interprets in
   * the caller's thread: there a busy loop ends by its timeout or command limit.
   */
  preemptiveAbort: boolean;
};

/**
 * Where the agent's commands and files live.
 *
 * Contract (checked by the cases in `src/sandbox/contract.ts` for every implementation, in Node
 * and, from Settings → self-check, in the browser):
 * - `exec` never rejects; failures are in the result. Each call starts with fresh shell state
 *   (cwd, variables, functions) while files persist.
 * - Exit codes: 124 timeout, 126 limit exceeded, 127 command not found, 130 aborted.
 * - Output beyond `maxOutputChars` is kept as head + tail with a marker saying how much was cut.
 * - A timeout really stops the command, even a busy loop. An abort stops it as soon as the
 *   sandbox's thread is free: at once when `capabilities.preemptiveAbort` (WebContainer: another
 *   process; just-bash in a Worker); for just-bash in the caller's thread, at the command's next
 *   wait, else by its timeout or command limit.
 */
export interface Sandbox {
  readonly kind: SandboxKind;
  readonly workdir: string;
  /** Absent means none beyond the common contract (`preemptiveAbort: false`). */
  readonly capabilities?: SandboxCapabilities;
  exec(command: string, opts?: ExecOptions): Promise<ExecResult>;
  readonly fs: SandboxFs;
  /** Git the harness can drive itself (isolated workspaces on real branches); absent: none. */
  readonly git?: SandboxGit;
  /** Release workers and instances; the sandbox is unusable afterwards. */
  dispose(): Promise<void>;
}
