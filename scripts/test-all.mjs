/**
 * `npm test`: every check, in order, stopping at the first that fails, then how long each phase
 * took (the same phases `.ci/run` times as one). Phases: types (svelte-check) and lint side by side
 * (each is single-threaded, and CI has two cores), unit (vitest;
 * its global setup builds the CLI bundle when the sources changed, and the course test runs every
 * lesson headless), build (the app; the CLI bundle only if still stale, so it is built once), e2e.
 *
 * Measured, not adopted (2026-12-05): running types, lint and unit beside e2e at a low CPU priority
 * (the browser tests use ~1.3 of two cores on average). Under `nice -n 10` the whole chain took as
 * long (875 s: e2e 730 → 862 s), and even under SCHED_IDLE (`chrt --idle 0`) four e2e files took
 * 118 s instead of 87: the idle third is not free on these machines, so the phases stay in a row.
 *
 * Each phase's CPU time (user + system of every process it started: Chromium, the servers, vitest's
 * workers) is printed beside its wall time, and their ratio: how many of the machine's cores the
 * phase kept busy. A phase near the core count cannot get faster by running beside another; one
 * well below it is waiting (on a browser, a timer, the disk). It is the larger of two counts that can
 * each only miss time: the tree sampled from /proc (`cpu-meter.mjs`; misses processes too short-lived
 * to be seen) and the shell's `times` (misses what no waited-for process waited for, such as
 * Chromium's renderers). Linux only for the first; elsewhere the second alone.
 *
 *   node scripts/test-all.mjs [--from <phase>]   (start at a phase, e.g. after fixing an e2e test)
 *
 * `HP_TEST_ALL_PHASES` (JSON, `[[name, command], …]`) replaces the phases: the script's own test
 * (`test/unit/test-all-script.test.ts`) runs it on commands of a second, not on the whole chain.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { meterTree } from './cpu-meter.mjs';

const PHASES = process.env.HP_TEST_ALL_PHASES ? JSON.parse(process.env.HP_TEST_ALL_PHASES) : [
  ['check', 'npm run check'],
  ['lint', 'npm run lint'],
  ['unit', 'npx vitest run'],
  ['build', 'npx vite build && node scripts/build-cli.mjs --if-stale'],
  ['e2e', 'npm run test:e2e'],
];

const fromArg = process.argv.indexOf('--from');
const from = fromArg === -1 ? PHASES[0][0] : process.argv[fromArg + 1];
const start = PHASES.findIndex(([name]) => name === from);
if (start === -1) {
  process.stderr.write(`test-all: no phase "${from}" (phases: ${PHASES.map(([n]) => n).join(', ')})\n`);
  process.exit(2);
}

const scratch = mkdtempSync(join(tmpdir(), 'hp-test-all-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

/**
 * `command` as the phase's shell runs it, followed by the POSIX `times` builtin (its children's
 * user and system time, which includes what they waited for in turn), written to a file of its own.
 */
function timed(name, command) {
  const file = join(scratch, `${name}.times`);
  // In a subshell, so a command that ends its shell (`exit`) still leaves the times behind it.
  return { file, line: `(${command})\nstatus=$?; times > '${file}'; exit $status` };
}

/** CPU seconds from a `times` output's second line ("0m12.34s 0m1.50s": children's user, system); null when unreadable. */
function cpuSeconds(file) {
  try {
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const parts = (lines[1] ?? '').trim().split(/\s+/);
    const secs = parts.map((p) => {
      const m = /^(\d+)m([\d.]+)s$/.exec(p);
      return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
    });
    return secs.length === 2 && secs.every(Number.isFinite) ? secs[0] + secs[1] : null;
  } catch {
    return null;
  }
}

/**
 * Runs one phase's command; resolves `[name, wall s, ok, status, CPU s | null]`. `buffered`: its
 * output is kept and printed whole when it ends (a phase beside another), else it goes straight through.
 */
function runPhase(name, command, buffered) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const run = timed(name, command);
    if (!buffered) process.stdout.write(`\n::: ${name}: ${command}\n`);
    const child = spawn(run.line, {
      shell: true,
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // Piped output loses a terminal's colours; keep them as when the phase runs alone.
      env: buffered && process.stdout.isTTY ? { FORCE_COLOR: '1', ...process.env } : process.env,
    });
    const meter = meterTree(child.pid);
    const chunks = [];
    child.stdout?.on('data', (c) => chunks.push(c));
    child.stderr?.on('data', (c) => chunks.push(c));
    child.on('close', (code) => {
      const sampled = meter.stop();
      const waited = cpuSeconds(run.file);
      const cpu = sampled === null ? waited : waited === null ? sampled : Math.max(sampled, waited);
      if (buffered) {
        process.stdout.write(`\n::: ${name}: ${command}\n`);
        process.stdout.write(Buffer.concat(chunks));
      }
      resolve([name, (Date.now() - t0) / 1000, code === 0, code ?? 1, cpu]);
    });
  });
}

const times = [];
const began = Date.now();
let failed = null;
const todo = PHASES.slice(start);
// Types and lint only read the sources: run them together when both are due.
if (todo[0]?.[0] === 'check' && todo[1]?.[0] === 'lint') {
  const results = await Promise.all(todo.splice(0, 2).map(([name, command]) => runPhase(name, command, true)));
  for (const [name, s, ok, status, cpu] of results) {
    times.push([name, s, ok, cpu]);
    if (!ok && !failed) failed = { name, status };
  }
}
for (const [name, command] of failed ? [] : todo) {
  const [, wall, ok, status, cpu] = await runPhase(name, command, false);
  times.push([name, wall, ok, cpu]);
  if (!ok) {
    failed = { name, status };
    break;
  }
}

process.stdout.write(`\n::: npm test phases (wall; CPU of everything the phase ran; cores busy on average, of ${cpus().length})\n`);
for (const [name, s, ok, cpu] of times) {
  const load = cpu === null || !(s > 0) ? '' : `   CPU ${cpu.toFixed(1).padStart(7)} s   ${(cpu / s).toFixed(2)} cores`;
  process.stdout.write(`:::   ${name.padEnd(6)} ${s.toFixed(1).padStart(7)} s${load}${ok ? '' : '  FAILED'}\n`);
}
process.stdout.write(`:::   total  ${((Date.now() - began) / 1000).toFixed(1).padStart(7)} s\n`);
if (failed) process.exit(failed.status);
