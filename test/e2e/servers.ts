import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../fixtures/free-port.ts';

/**
 * A server process started in its own process group (`detached: true` = setsid), so stopping it
 * also stops whatever it spawned (tsx re-execs node; npx wraps Vite).
 */
export type ServerProcess = {
  url: string;
  /** Recent stdout/stderr lines, for error messages. */
  output: () => string;
  stop: () => Promise<void>;
};

const running = new Set<ChildProcess>();

// If the runner dies without calling teardown, still take the process groups down with it.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Group already gone.
  }
}

function startDetached(command: string, args: string[], cwd: string, env: Record<string, string> = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
  });
  running.add(child);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 40) lines.splice(0, lines.length - 40);
  };
  child.stderr?.on('data', keep);
  child.stdout?.on('data', keep);
  return { child, output: () => lines.join('\n') };
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(child);
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    running.delete(child);
  };
}

export { freePort };

/** Poll `url` until it answers HTTP 200, the process exits, or `timeoutMs` passes. */
async function waitForHttp(url: string, child: ChildProcess, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`server for ${url} exited with code ${child.exitCode} before answering:\n${output()}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    // Poll interval between HTTP attempts (not a wait for the result itself).
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms (last: ${lastError}):\n${output()}`);
}

/** Start Vite (`vite.js` with `args`) on a free loopback port; resolved once it answers HTTP. */
async function startVite(repoRoot: string, args: (port: number) => string[], timeoutMs: number, env: Record<string, string> = {}, cleanup = () => {}): Promise<ServerProcess> {
  const port = await freePort();
  const viteBin = `${repoRoot}/node_modules/vite/bin/vite.js`;
  const { child, output } = startDetached(process.execPath, [viteBin, ...args(port)], repoRoot, env);
  const url = `http://127.0.0.1:${port}`;
  const stopChild = stopper(child);
  const stop = async () => {
    await stopChild();
    cleanup();
  };
  try {
    await waitForHttp(`${url}/`, child, timeoutMs, output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, output, stop };
}

/**
 * `vite preview` of a built app directory (`outDir`, default dist/) on 127.0.0.1, resolved once
 * it answers HTTP. It runs with the project's vite.config.ts, so the preview headers apply;
 * `compress: false` (the e2e tests) sends responses uncompressed (see vite.preview.config.ts).
 */
export function startVitePreview(repoRoot: string, outDir = 'dist', options: { compress?: boolean } = {}): Promise<ServerProcess> {
  const config = options.compress === false ? ['--config', 'test/e2e/vite.preview.config.ts'] : [];
  return startVite(repoRoot, (port) => ['preview', ...config, '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--outDir', outDir], 30_000);
}

/**
 * `vite` (the dev server `npm run dev` starts) on 127.0.0.1, resolved once it answers HTTP.
 * `--force` re-runs dependency pre-bundling with the current config, as on a fresh clone (a cache
 * from an older config would hide a pre-bundling problem), into a cache folder of its own
 * (`vite.dev.config.ts`), removed when it stops.
 */
export function startViteDev(repoRoot: string): Promise<ServerProcess> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'hp-e2e-vite-cache-'));
  const args = (port: number) => ['--config', 'test/e2e/vite.dev.config.ts', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--force'];
  return startVite(repoRoot, args, 60_000, { HP_E2E_VITE_CACHE: cacheDir }, () => rmSync(cacheDir, { recursive: true, force: true }));
}

/**
 * The fake Anthropic server (`test/fixtures/start-fake-server.ts --port 0`), which prints
 * `{"url": "..."}` as its first stdout line. `args` are passed on (e.g. `--require-key K`).
 */
export async function startFakeAnthropic(repoRoot: string, script: string, args: string[] = []): Promise<ServerProcess> {
  const tsxCli = `${repoRoot}/node_modules/tsx/dist/cli.mjs`;
  const { child, output } = startDetached(process.execPath, [tsxCli, script, '--port', '0', ...args], repoRoot);
  const stop = stopper(child);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fake Anthropic server printed no {"url"} line within 30 s:\n${output()}`)),
        30_000,
      );
      let head = '';
      const onData = (chunk: Buffer) => {
        head += chunk.toString('utf8');
        const nl = head.indexOf('\n');
        if (nl < 0) return;
        child.stdout?.off('data', onData);
        clearTimeout(timer);
        const line = head.slice(0, nl).trim();
        try {
          const parsed = JSON.parse(line) as { url?: unknown };
          if (typeof parsed.url !== 'string') throw new Error('no "url" string');
          resolve(parsed.url.replace(/\/$/, ''));
        } catch (err) {
          reject(new Error(`fake Anthropic server's first line is not {"url": ...}: ${line} (${String(err)})`));
        }
      };
      child.stdout?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`fake Anthropic server exited with code ${code}:\n${output()}`));
      });
    });
    return { url, output, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
