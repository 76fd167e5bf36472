/**
 * The file API a JS custom tool sees (`UserToolFiles`): read, write and list, confined to the
 * project directory, and bounded.
 *
 * - **Confined by real path.** A path that leaves the project (`../`, `/etc/…`) is refused before
 *   the sandbox is touched; then the path is resolved through the sandbox's `realpath`, so a link
 *   (`ln -s /home/user homelink`, or a dangling `out -> /home/user/x` a write would create
 *   through) cannot carry the tool outside either. The call then uses the real path.
 * - **No quiet writes to what configures the harness.** `.claude/`, `.mcp.json` and `.git/` are
 *   never written through this door (the Write tool asks for them; a tool's file call cannot
 *   ask), and a tool declared `readOnly` — which modes and rules approve without asking — writes
 *   nothing at all.
 * - **Bounded.** A tool that calls `files.write` in a loop without awaiting would queue thousands
 *   of requests that keep the sandbox busy long after the tool's timeout. Calls run one at a time;
 *   past {@link FILE_API_LIMITS} the API trips: queued calls are dropped, later calls reject, and
 *   `onLimit` tells the caller to stop the tool. `close()` (when the tool settles) drops the queue.
 */
import { isInside, resolvePath } from '../../util/paths.ts';
import { protectedPathReason } from '../../permissions/index.ts';
import type { DirEntry, Sandbox, UserToolFiles } from '../../ports.ts';

export type FileApiLimits = {
  /** File calls (read, write, list) one tool run may make. */
  maxCalls: number;
  /** UTF-8 bytes one tool run may write in total. */
  maxWriteBytes: number;
};

/** Far above what a real tool needs (a few files), far below what keeps a page busy for minutes. */
export const FILE_API_LIMITS: FileApiLimits = { maxCalls: 1_000, maxWriteBytes: 8 * 1024 * 1024 };

export type ProjectFiles = UserToolFiles & {
  /**
   * Ends this run's API (the tool settled): queued calls reject, later calls reject at once.
   * Resolves once the call in flight, if any, has finished, so nothing writes after it.
   */
  close(): Promise<void>;
  /** The limit the tool ran into ("made more than 1000 file calls in one run …"), or null. */
  readonly tripped: string | null;
};

export type ProjectFilesOptions = {
  /** The tool's name, for messages. */
  tool?: string;
  /** The tool is declared read-only: every write is refused. */
  readOnly?: boolean;
  limits?: Partial<FileApiLimits>;
  /** Called once when a limit trips, with the reason: the caller stops the tool. */
  onLimit?: (reason: string) => void;
};

type Job = { run: () => Promise<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };

const utf8 = new TextEncoder();

export function projectFiles(sandbox: Sandbox, cwd: string, opts: ProjectFilesOptions = {}): ProjectFiles {
  const root = sandbox.workdir;
  const limits = { ...FILE_API_LIMITS, ...opts.limits };
  const who = opts.tool ? `the tool "${opts.tool}"` : 'this tool';
  let calls = 0;
  let written = 0;
  let tripped: string | null = null;
  let closed: string | null = null;
  const queue: Job[] = [];
  let inFlight: Promise<void> | null = null;

  /** The real path of `path`, refused when it (or a link on it) leads outside the project. */
  const inside = async (path: string, op: 'read' | 'write' | 'list'): Promise<string> => {
    if (typeof path !== 'string' || path === '') throw new Error('files: a path is required');
    const abs = resolvePath(cwd, path);
    if (!isInside(root, abs)) throw new Error(`files: "${path}" is outside the project (${root}); custom tools may only touch project files`);
    let real: string;
    try {
      real = await sandbox.fs.realpath(abs);
    } catch (e) {
      throw new Error(`files: "${path}" cannot be resolved (${e instanceof Error ? e.message : String(e)}), so it is refused`, { cause: e });
    }
    if (!isInside(root, real)) throw new Error(`files: "${path}" leads outside the project (to ${real}) through a symbolic link; custom tools may only touch project files`);
    if (op === 'write') {
      if (opts.readOnly) throw new Error(`files.write: ${who} is declared read-only, so it may not write "${path}" (clear "read-only" in the tool editor if it writes)`);
      const why = protectedPathReason(real);
      if (why) throw new Error(`files.write: ${why}; custom tools may not write it (the Write tool asks before it does)`);
    }
    return real;
  };

  const drop = (reason: string) => {
    for (const job of queue.splice(0)) job.reject(new Error(reason));
  };

  const stopped = () => `files: ${who} ${tripped}, so it is being stopped`;
  const trip = (reason: string) => {
    if (tripped) return;
    tripped = reason;
    drop(stopped());
    opts.onLimit?.(reason);
  };

  const pump = () => {
    if (inFlight) return;
    const job = queue.shift();
    if (!job) return;
    inFlight = job.run().then(job.resolve, job.reject).finally(() => {
      inFlight = null;
      pump();
    });
  };

  /** Counts the call, then runs it after the ones before it (or rejects, once stopped). */
  const enqueue = <T>(run: () => Promise<T>, bytes = 0): Promise<T> => {
    if (closed) return Promise.reject(new Error(closed));
    if (tripped) return Promise.reject(new Error(stopped()));
    calls += 1;
    written += bytes;
    if (calls > limits.maxCalls) trip(`made more than ${limits.maxCalls} file calls in one run (write fewer, larger files)`);
    else if (written > limits.maxWriteBytes) trip(`wrote more than ${limits.maxWriteBytes} bytes in one run`);
    if (tripped) return Promise.reject(new Error(stopped()));
    return new Promise<T>((resolve, reject) => {
      queue.push({ run, resolve: resolve as (v: unknown) => void, reject });
      pump();
    });
  };

  return {
    read: (path) => enqueue(async () => sandbox.fs.readFile(await inside(path, 'read'))),
    write: (path, content) => {
      if (typeof content !== 'string') return Promise.reject(new Error('files.write: the content must be a string'));
      return enqueue(async () => sandbox.fs.writeFile(await inside(path, 'write'), content), utf8.encode(content).byteLength);
    },
    list: (dir): Promise<DirEntry[]> => enqueue(async () => sandbox.fs.list(await inside(dir || '.', 'list'))),
    async close() {
      closed ??= `files: ${who} has finished; its file calls after that are dropped`;
      drop(closed);
      await inFlight;
    },
    get tripped() {
      return tripped;
    },
  };
}
