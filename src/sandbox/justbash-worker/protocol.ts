/**
 * The messages between the page (`client.ts`) and the worker that hosts just-bash (`host.ts`).
 * Plain structured-clone data only: errors travel as {@link WireError} and are re-created on the
 * page, so callers still get a {@link SandboxFsError} with its POSIX code.
 */
import { SandboxFsError } from '../../harness/ports.ts';
import type { ExecResult, SandboxFs } from '../../harness/ports.ts';
import type { MirrorEntry, MirrorInit } from './file-mirror.ts';

/** The {@link SandboxFs} methods that cross the boundary (`watch` is served on the page). */
export type FsOp = Exclude<keyof SandboxFs, 'watch'>;

export const FS_OPS: readonly FsOp[] = ['readFile', 'writeFile', 'list', 'stat', 'mkdir', 'rm', 'rename', 'realpath'];

/** The exec options that can be cloned (the signal and the callback stay on the page). */
export type WireExecOptions = {
  cwd?: string;
  env?: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
  maxOutputChars?: number;
  /** Whether the page wants `output` messages (it has an `onOutput`). */
  stream: boolean;
};

export type WireError = { name: string; message: string; code?: string; path?: string };

export type ToWorker =
  /** `mtimeMs`: what every start file and directory reads as its modification time (`boot-view.ts`). */
  | ({ t: 'init'; env?: Record<string, string>; mtimeMs?: number } & MirrorInit)
  | {
      t: 'exec';
      id: number;
      command: string;
      opts: WireExecOptions;
      /** A 4-byte SharedArrayBuffer; the page stores 1 into it to abort (only when cross-origin isolated). */
      abortFlag?: SharedArrayBuffer;
    }
  | { t: 'abort'; id: number }
  /** The page disposed this sandbox before it ran a command: drop it and wait for the next `init` (`spare-worker.ts`). */
  | { t: 'reset' }
  | { t: 'fs'; id: number; op: FsOp; args: unknown[] };

export type FromWorker =
  | { t: 'ready'; ms: number }
  | { t: 'init-failed'; message: string }
  | { t: 'output'; id: number; chunk: { stream: 'stdout' | 'stderr'; text: string } }
  | { t: 'exec-done'; id: number; result: ExecResult }
  | { t: 'fs-done'; id: number; ok: true; value: unknown }
  | { t: 'fs-done'; id: number; ok: false; error: WireError }
  /** Sent before the reply of the operation that made the changes, so watchers hear first. */
  | { t: 'changed'; paths: string[]; mirror: MirrorEntry[] };

export function errorToWire(err: unknown): WireError {
  if (err instanceof SandboxFsError) return { name: 'SandboxFsError', message: err.message, code: err.code, path: err.path };
  if (err instanceof Error) return { name: err.name, message: err.message };
  return { name: 'Error', message: String(err) };
}

/** The page-side error for a {@link WireError}: a real {@link SandboxFsError} when it was one. */
export function errorFromWire(w: WireError): Error {
  if (w.name === 'SandboxFsError' && w.code !== undefined) return new SandboxFsError(w.code, w.path ?? '', w.message);
  const err = new Error(w.message);
  err.name = w.name;
  return err;
}

/** Checks an incoming `fs` request before it touches the file system. */
export function isFsOp(op: unknown): op is FsOp {
  return typeof op === 'string' && (FS_OPS as readonly string[]).includes(op);
}
