/**
 * The bundled headless runner for the fault tests — the one the global setup builds once per test
 * run (test/helpers/build-cli-once.ts) — spawned with stderr watched line by line: a test acts
 * when a marker appears, never after a sleep. (Each fault file once rebuilt a copy of its own in
 * a `beforeAll`, into one shared folder: when two files ran at once, one deleted the chunks the
 * other's runner was still loading, and that run ended with exit 1.)
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CLI_BUNDLE as bundle } from '../../scripts/build-cli.mjs';

export type Running = {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when stderr has a line matching `re` (rejects if the process ends first). */
  waitForStderr(re: RegExp): Promise<void>;
  /** The same for stdout. */
  waitForStdout(re: RegExp): Promise<void>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
};

export function startCli(args: string[], env: Record<string, string>): Running {
  const { ANTHROPIC_API_KEY: _k, ANTHROPIC_BASE_URL: _u, ...base } = process.env;
  const child = spawn(process.execPath, [bundle, ...args], { env: { ...base, ...env } });
  let stdout = '';
  let stderr = '';
  const waiters: { re: RegExp; on: () => string; resolve: () => void; reject: (e: Error) => void }[] = [];
  const waitFor = (re: RegExp, on: () => string) =>
    new Promise<void>((resolve, reject) => {
      waiters.push({ re, on, resolve, reject });
      check();
    });
  const check = () => {
    for (const w of [...waiters]) {
      if (!w.re.test(w.on())) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    check();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    check();
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      for (const w of waiters.splice(0)) w.reject(new Error(`the runner ended (code ${code}) before its output matched ${w.re}:\n${stderr}`));
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return {
    child,
    done,
    waitForStderr: (re) => waitFor(re, () => stderr),
    waitForStdout: (re) => waitFor(re, () => stdout),
  };
}
