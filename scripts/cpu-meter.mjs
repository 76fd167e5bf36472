/**
 * CPU time of a process tree, sampled from Linux's /proc: every process below a root (by parent
 * links, remembered once seen, so one reparented to init when its parent exits still counts), each
 * counted by its own user + system time at the last sample that saw it.
 *
 * Why not the shell's `times` (children's CPU as reported when they are waited for): Chromium's
 * renderers are not waited for by anything the phase waits for, so `times` saw 195 s of CPU for an
 * e2e phase that kept ~1.4 cores busy for 585 s (a cgroup's count of a four-file subset: 124 s of CPU
 * in 81 s). A process's last moments after its last sample are lost: sampled every 100 ms, that is at
 * most 0.1 s per process (a few hundred short-lived renderers in an e2e phase: a few per cent).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux). */
function clockTicks() {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
}

/** `{ ppid, ticks, start }` of every process now, from /proc/<pid>/stat; null off Linux. */
function snapshot() {
  let dirs;
  try {
    dirs = readdirSync('/proc');
  } catch {
    return null;
  }
  const out = new Map();
  for (const d of dirs) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // After the command name (which may hold spaces and parentheses): state ppid … utime(14) stime(15) … starttime(22).
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      out.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), start: f[19] });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/**
 * Starts sampling the tree below `rootPid`. `stop()` takes a last sample and returns the tree's
 * CPU seconds, or null where /proc is not there to read (not Linux).
 */
export function meterTree(rootPid, intervalMs = 100) {
  if (snapshot() === null) return { stop: () => null };
  const hz = clockTicks();
  // Processes by pid and start time, so a pid the system hands out again is not taken for a member.
  const key = (pid, p) => `${pid}:${p.start}`;
  const first = snapshot().get(rootPid);
  const inTree = new Set(first ? [key(rootPid, first)] : []);
  const last = new Map(); // member → its CPU ticks at the last sample that saw it
  const sample = () => {
    const now = snapshot();
    if (!now) return;
    // Parents are not listed before their children: repeat until no new member joins.
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, p] of now) {
        const parent = now.get(p.ppid);
        if (!inTree.has(key(pid, p)) && parent && inTree.has(key(p.ppid, parent))) {
          inTree.add(key(pid, p));
          grew = true;
        }
      }
    }
    for (const [pid, p] of now) if (inTree.has(key(pid, p))) last.set(key(pid, p), p.ticks);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      let ticks = 0;
      for (const t of last.values()) ticks += t;
      return ticks / hz;
    },
  };
}
