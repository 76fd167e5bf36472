/**
 * `npm test`'s driver (`scripts/test-all.mjs`) on stand-in phases: the chain stops at the first
 * failing phase with its exit status, and each phase's line gives its wall time and the CPU time of
 * what it ran (the figure that says whether the phase can get faster beside another).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function runChain(phases: [string, string][], args: string[] = []) {
  const r = spawnSync(process.execPath, ['scripts/test-all.mjs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, HP_TEST_ALL_PHASES: JSON.stringify(phases) },
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

/** The phase's line of the closing table: `:::   <name>  <wall> s   CPU <cpu> s   <n> cores`. */
function phaseLine(out: string, name: string): { wall: number; cpu: number | null; failed: boolean } | null {
  const line = out.split('\n').find((l) => new RegExp(`^:::\\s+${name}\\s+[\\d.]+ s`).test(l));
  if (!line) return null;
  const wall = Number(/([\d.]+) s/.exec(line)![1]);
  const cpu = /CPU\s+([\d.]+) s/.exec(line);
  return { wall, cpu: cpu ? Number(cpu[1]) : null, failed: line.includes('FAILED') };
}

// Spins one core for about `ms` of CPU time, then exits `code`.
const spin = (ms: number, code = 0) => `"${process.execPath}" -e "const t=process.cpuUsage();while((process.cpuUsage(t).user)/1000<${ms}){}process.exit(${code})"`;

describe('scripts/test-all.mjs', () => {
  it('prints each phase with its CPU time, counting what the phase started in turn', () => {
    const r = runChain([
      ['check', spin(300)],
      ['lint', 'exit 0'],
      // The CPU of a grandchild (a shell that runs node) counts toward its phase.
      ['unit', `sh -c '${spin(400).replace(/'/g, "'\\''")}'`],
    ]);
    expect(r.status, r.out).toBe(0);
    const check = phaseLine(r.out, 'check');
    const unit = phaseLine(r.out, 'unit');
    expect(check?.cpu).toBeGreaterThanOrEqual(0.3);
    expect(unit?.cpu).toBeGreaterThanOrEqual(0.4);
    expect(phaseLine(r.out, 'lint')?.cpu).toBeLessThan(0.3);
    expect(r.out).toMatch(/cores busy on average, of \d+/);
  });

  it.runIf(process.platform === 'linux')('counts a process nothing waits for (as Chromium’s renderers), sampled from /proc', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-test-all-'));
    dirs.push(dir);
    const done = join(dir, 'done');
    // The spinning node runs in a subshell that its parent starts in the background and leaves
    // half a second later without waiting for it: from then on init is its parent, and init reaps
    // it, so the phase's `times` never sees its CPU; the /proc sampler, which saw it in the tree
    // while its parent lived, does. The phase ends once the spinner has marked itself done (a state,
    // not a time, so a busy machine changes nothing).
    const orphan = `( (${spin(900)}; touch ${done}) & sleep 0.5 ); while [ ! -f ${done} ]; do sleep 0.05; done`;
    const r = runChain([['e2e', `sh -c '${orphan.replace(/'/g, "'\\''")}'`]]);
    expect(r.status, r.out).toBe(0);
    expect(existsSync(done)).toBe(true);
    expect(phaseLine(r.out, 'e2e')?.cpu).toBeGreaterThanOrEqual(0.4);
  });

  it('stops at the first failing phase and exits with its status', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-test-all-'));
    dirs.push(dir);
    const marker = join(dir, 'build-ran');
    const r = runChain([
      ['check', 'exit 0'],
      ['lint', 'exit 0'],
      ['unit', 'exit 3'],
      ['build', `touch '${marker}'`],
    ]);
    expect(r.status).toBe(3);
    expect(phaseLine(r.out, 'unit')?.failed).toBe(true);
    expect(existsSync(marker), 'the phase after a failure must not run').toBe(false);
    expect(phaseLine(r.out, 'build')).toBeNull();
  });

  it('--from starts at the named phase; an unknown one is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-test-all-'));
    dirs.push(dir);
    const marker = join(dir, 'check-ran');
    const from = runChain([
      ['check', `touch '${marker}'`],
      ['unit', 'exit 0'],
    ], ['--from', 'unit']);
    expect(from.status, from.out).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(phaseLine(from.out, 'unit')).not.toBeNull();
    const bad = runChain([['check', 'exit 0']], ['--from', 'nope']);
    expect(bad.status).toBe(2);
    expect(bad.out).toContain('no phase "nope"');
  });
});
