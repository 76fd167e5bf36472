/**
 * The bundled headless runner for the fault tests, built once into its own folder (so it never
 * races another test file's rebuild of dist-cli/), and spawned with stderr watched line by line:
 * a test acts when a marker appears, never after a sleep.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { buildCli } from '../../scripts/build-cli.mjs';

export const FAULTS_CLI_DIR = join(process.cwd(), 'node_modules', '.cache', 'hp-cli-faults');
const bundle = join(FAULTS_CLI_DIR, 'harness.mjs');

export async function buildFaultsCli(): Promise<void> {
  await buildCli({ quiet: true, outdir: FAULTS_CLI_DIR });
}

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
