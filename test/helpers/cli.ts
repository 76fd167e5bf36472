/**
 * Running the headless runner from tests, two ways (one copy each; they were written three times):
 * - `runCliInProcess`: its `main` in this process — what most tests need (exit code, stdout,
 *   stderr), with no process start-up or TypeScript compile per call;
 * - `runCliBundle`: the built bundle (`dist-cli/harness.mjs`, built once per test run by the
 *   global setup) as a real process — for what only a process shows (cwd, the bundle itself).
 */
import { spawn } from 'node:child_process';
import { main } from '../../src/cli/run-scenario.ts';
import { CLI_BUNDLE } from '../../scripts/build-cli.mjs';

export type CliRun = { code: number | null; stdout: string; stderr: string };

/** `main(args)` with `env` over `process.env` for the call (a value `undefined` unsets it). */
export async function runCliInProcess(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliRun> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const set = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(env);
  let stdout = '';
  let stderr = '';
  try {
    const code = await main(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
    return { code, stdout, stderr };
  } finally {
    set(saved);
  }
}

/**
 * The bundle as a child process; the caller's ANTHROPIC_* variables are not passed on unless given
 * in `env`. With `stdin`, that text is written to its standard input, which is then closed.
 */
export function runCliBundle(args: readonly string[], env: Record<string, string> = {}, cwd = process.cwd(), stdin?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const { ANTHROPIC_API_KEY: _k, ANTHROPIC_BASE_URL: _u, ...base } = process.env;
    const child = spawn(process.execPath, [CLI_BUNDLE, ...args], { cwd, env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (stdin !== undefined) child.stdin.end(stdin);
  });
}

/** `--output-format trace` stdout as events (the result object left out). */
export function traceEvents<E extends { type: string }>(stdout: string): E[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as E)
    .filter((e) => e.type !== 'result');
}
