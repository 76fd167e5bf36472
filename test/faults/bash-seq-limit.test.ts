/**
 * Issue 20 §4: in just-bash, `seq` past the sandbox's loop limit (100,000) used to end the whole
 * script with exit 126 and no output at all. Now it keeps the numbers up to the limit, says on
 * stderr that the limit cut it, and the rest of the script runs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Sandbox } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createJustBashSandbox();
});
afterAll(async () => {
  await sandbox.dispose();
});

const LIMIT_NOTE = "seq: stopped at 100000: the sandbox's limit is 100,000 numbers (asked for 180,000)\n";

it('seq 1 180000 keeps the output up to the limit, says the limit was hit, and the script goes on', async () => {
  const r = await sandbox.exec('seq 1 180000 | tail -3; echo after');
  expect(r.stdout).toBe('99998\n99999\n100000\nafter\n');
  expect(r.stderr).toBe(LIMIT_NOTE);
  expect(r.exitCode).toBe(0);
});

it('the numbers so far are all there, and seq itself fails (exit 1), as a command cut short does', async () => {
  const r = await sandbox.exec('seq 1 180000 > n.txt; echo "seq exit $?"; wc -l < n.txt; head -1 n.txt');
  expect(r.stdout.split('\n').map((l) => l.trim())).toEqual(['seq exit 1', '100000', '1', '']);
  expect(r.stderr).toBe(LIMIT_NOTE);
});

it('keeps the operands’ form: a step, decimals, counting down', async () => {
  expect((await sandbox.exec('seq 0.5 0.5 60000 | tail -1')).stdout).toBe('50000.0\n');
  expect((await sandbox.exec('seq 300000 -2 1 | tail -1')).stdout).toBe('100002\n');
  // Within the limit nothing changes.
  expect(await sandbox.exec('seq -s, 1 2 9')).toMatchObject({ stdout: '1,3,5,7,9\n', stderr: '', exitCode: 0 });
  expect(await sandbox.exec('seq abc')).toMatchObject({ stdout: '', exitCode: 1 });
});
