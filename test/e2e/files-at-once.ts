/**
 * How many e2e files run side by side (`vitest.e2e.config.ts`): two when this machine has two cores
 * that really run at once, else one. `E2E_FILES_AT_ONCE=<n>` decides instead.
 *
 * Why measured, not read from `os.availableParallelism()`: the machines this suite runs on report two
 * CPUs, but on one of them (CI, 2026-12-04) two files side by side each took twice as long as alone
 * (1,066 s for the phase), while on another (2026-12-06) two threads each ran at 97–99 % of one's speed
 * and two files side by side took the phase from 365–442 s to 243 s. A single e2e file keeps ~1.3 of two
 * cores busy (it waits on the browser), so a second file uses the rest — where the rest exists.
 *
 * The check: one thread counts loop iterations for 150 ms alone, then two threads count for 150 ms at
 * the same moment; two files run at once when each of the two did at least 80 % of the lone count.
 * About half a second, once per e2e run.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

const SPIN_MS = 150;
/** Each of two threads must keep this share of one thread's speed. */
const MIN_SHARE = 0.8;

/** The thread: busy-waits until `startAt` (so two start together), counts iterations for SPIN_MS, posts the count. */
const SPINNER = `
const { parentPort, workerData } = require('node:worker_threads');
while (Date.now() < workerData.startAt);
const end = workerData.startAt + ${SPIN_MS};
let n = 0;
while (Date.now() < end) for (let i = 0; i < 1000; i++) n++;
parentPort.postMessage(n);
`;

function spin(startAt: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(SPINNER, { eval: true, workerData: { startAt } });
    w.once('message', (n: number) => {
      resolve(n);
      void w.terminate();
    });
    w.once('error', reject);
  });
}

export type FilesAtOnce = { files: number; why: string };

/** The decision, with the reason in words (the config prints it). */
export async function filesAtOnce(env: NodeJS.ProcessEnv = process.env): Promise<FilesAtOnce> {
  const forced = Number(env.E2E_FILES_AT_ONCE);
  if (env.E2E_FILES_AT_ONCE !== undefined && Number.isInteger(forced) && forced >= 1) return { files: forced, why: 'E2E_FILES_AT_ONCE' };
  if (availableParallelism() < 2) return { files: 1, why: 'one CPU' };
  // Threads take a few tens of ms to start: each is given a start time far enough ahead.
  const alone = await spin(Date.now() + 100);
  const start = Date.now() + 100;
  const [a, b] = await Promise.all([spin(start), spin(start)]);
  const share = Math.min(a, b) / alone;
  const pct = `${Math.round(share * 100)} %`;
  return share >= MIN_SHARE
    ? { files: 2, why: `two threads each ran at ${pct} of one's speed` }
    : { files: 1, why: `two threads each ran at only ${pct} of one's speed` };
}
