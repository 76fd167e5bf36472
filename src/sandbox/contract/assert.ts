/**
 * The tiny assertions and helpers the sandbox contract cases share (no test framework: the
 * contract also runs in the browser as the sandbox self-check). A failed assertion throws an
 * Error saying what differed.
 */
import { SandboxFsError } from '../../harness/ports.ts';
import type { ExecResult, Sandbox } from '../../harness/ports.ts';

export type ContractCase = { name: string; run(sb: Sandbox): Promise<void> };

export function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (show(actual) !== show(expected)) throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function expectTrue(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(detail === undefined ? what : `${what} (got ${show(detail)})`);
}

export async function expectFsError(work: Promise<unknown>, code: string, what: string): Promise<void> {
  try {
    await work;
  } catch (err) {
    expectTrue(err instanceof SandboxFsError, `${what}: should reject with a SandboxFsError`, String(err));
    expectEqual((err as SandboxFsError).code, code, `${what}: error code`);
    return;
  }
  throw new Error(`${what}: expected a ${code} rejection, but it succeeded`);
}

export function expectExit(r: ExecResult, code: number, what: string): void {
  if (r.exitCode !== code) {
    throw new Error(`${what}: expected exit ${code}, got ${r.exitCode} (stdout ${show(r.stdout)}, stderr ${show(r.stderr)})`);
  }
}

/** Fires `controller.abort()` after `ms`; the command under test is what we wait for. */
export function abortAfter(ms: number): AbortController {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller;
}

/**
 * A loop that never yields to the event loop. Its body is a command substitution rather than
 * `:` so that just-bash's 100,000-command limit (reached in about 0.4 s in Chromium with `:`)
 * comes seconds after the timeouts used here, not before them.
 */
export const BUSY_LOOP = 'while true; do s=$(echo spin); done';

/** Whether `sb` promises that an abort stops even a busy loop at once. */
export function preemptive(sb: Sandbox): boolean {
  return sb.capabilities?.preemptiveAbort === true;
}

/** WebContainer has one combined output stream, so stderr text arrives in `stdout` there. */
export function errText(sb: Sandbox, r: ExecResult): string {
  return sb.kind === 'webcontainer' ? r.stdout + r.stderr : r.stderr;
}
