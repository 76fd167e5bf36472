/**
 * Headless runner start-up and memory (`npx tsx test/bench/cli-startup.ts`, part of `npm run bench`):
 * time from spawning the process to the first request reaching the fake Anthropic server (a
 * `--dir` run), and peak RSS over a 30-turn session (GNU time's max resident set). Bundled
 * (`dist-cli/harness.mjs`) against the TypeScript sources through tsx. Targets from issue 10:
 * ≤ 500 ms to the first request, ≤ 150 MB peak. Printed, not asserted.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { buildCli, CLI_BUNDLE } from '../../scripts/build-cli.mjs';

const KEY = 'sk-ant-bench-0000000000';
const TIME = '/usr/bin/time';

function sessionTurns(n: number): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let i = 0; i < n - 1; i++) {
    turns.push({
      content: [
        { type: 'text', text: `Step ${i}: checking the notes.` },
        i % 2 === 0 ? { type: 'tool_use', name: 'read', input: { file_path: 'notes.md' } } : { type: 'tool_use', name: 'bash', input: { command: 'wc -l notes.md && grep -c line notes.md' } },
      ],
    });
  }
  turns.push({ content: [{ type: 'text', text: 'Finished.' }] });
  return turns;
}

type Sample = { firstRequestMs: number; cpuMs: number | null; peakMb: number | null; exit: number | null };

async function once(cmd: string[], turns: number): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'hp-bench-'));
  writeFileSync(join(dir, 'notes.md'), Array.from({ length: 200 }, (_, i) => `line ${i}: notes about the project`).join('\n'));
  let first = -1;
  const server = await startFakeAnthropicServer({ turns: sessionTurns(turns), requireApiKey: KEY });
  const t0 = performance.now();
  const probe = setInterval(() => {
    if (first < 0 && server.requests.some((r) => r.method === 'POST')) first = performance.now() - t0;
  }, 1);
  const withTime = existsSync(TIME) ? [TIME, '-f', '__maxrss_kb=%M __cpu_s=%U+%S', ...cmd] : cmd;
  const child = spawn(withTime[0]!, [...withTime.slice(1), '--dir', dir, '-p', 'Go through the notes.', '--trust', '--output-format', 'json'], {
    env: { ...process.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const exit = await new Promise<number | null>((r) => child.on('close', r));
  clearInterval(probe);
  await server.close();
  const kb = /__maxrss_kb=(\d+)/.exec(stderr);
  const cpu = /__cpu_s=([\d.]+)\+([\d.]+)/.exec(stderr);
  return { firstRequestMs: first, cpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : null, peakMb: kb ? Number(kb[1]) / 1024 : null, exit };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function cliStartupRows({ bundleOnly = false } = {}) {
  await buildCli({ quiet: true });
  const all: { name: string; cmd: string[]; runs: number }[] = [
    { name: 'bundle (dist-cli/harness.mjs)', cmd: [process.execPath, CLI_BUNDLE], runs: 5 },
    { name: 'bin shim (npx harness-playground)', cmd: [process.execPath, join(process.cwd(), 'bin', 'harness-playground.mjs')], runs: 3 },
    { name: 'sources through tsx', cmd: [process.execPath, '--import', 'tsx', join(process.cwd(), 'src', 'cli', 'run-scenario.ts')], runs: 2 },
  ];
  const variants = bundleOnly ? all.slice(0, 1) : all;
  const rows = [];
  for (const v of variants) {
    const starts: Sample[] = [];
    for (let i = 0; i < v.runs; i++) starts.push(await once(v.cmd, 1));
    const long = await once(v.cmd, 30);
    const cpus = starts.map((x) => x.cpuMs).filter((x): x is number => x !== null);
    rows.push({ name: v.name, startMs: median(starts.map((x) => x.firstRequestMs)), cpuMs: cpus.length ? median(cpus) : null, peakMb: long.peakMb, exit: long.exit });
  }
  return rows;
}

async function main() {
  // `--bundle-only`: just the bundle (quick, while working on start-up or memory).
  const rows = await cliStartupRows({ bundleOnly: process.argv.includes('--bundle-only') });
  console.log(`Headless runner: start-up to the first request (median), peak RSS on a 30-turn --dir session (load average ${loadavg()[0]!.toFixed(1)})\n`);
  console.log(`${'runner'.padEnd(36)} ${'to 1st request'.padStart(15)} ${'CPU, 1-turn run'.padStart(16)} ${'peak RSS (30 turns)'.padStart(20)} ${'exit'.padStart(5)}`);
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(36)} ${`${r.startMs.toFixed(0)} ms`.padStart(15)} ${(r.cpuMs === null ? 'n/a' : `${r.cpuMs.toFixed(0)} ms`).padStart(16)} ${(r.peakMb === null ? 'n/a' : `${r.peakMb.toFixed(0)} MB`).padStart(20)} ${String(r.exit).padStart(5)}`,
    );
  }
  console.log('Targets: ≤ 500 ms to the first request, ≤ 150 MB peak (bundle). Wall-clock includes waiting for a busy');
  console.log('machine (see the load average); CPU (user + sys of a whole 1-turn run) is an upper bound on start-up work.\n');
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
