/**
 * The headless runner's `--steer-file`: each line is delivered at its own safe point, in order,
 * as `interrupt.received` from `file`; a line that cannot be queued is a usage error (exit 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli } from '../helpers/cli.ts';

describe('run-scenario --steer-file', () => {
  it('delivers each line at the next safe point, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steer-'));
    const file = join(dir, 'steer.txt');
    writeFileSync(file, '# steering for fix-a-bug\nkeep the fix minimal\n\nalso explain the cause\n');
    const r = await runCli(['fix-a-bug', '--steer-file', file, '--output-format', 'trace']);
    expect(r.code).toBe(0);
    const events = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string; source?: string; beforeTurn?: number }).filter((e) => e.type !== 'result');
    const received = events.filter((e) => e.type === 'interrupt.received');
    expect(received.map((e) => [e.text, e.source, e.beforeTurn])).toEqual([
      ['keep the fix minimal', 'file', 2],
      ['also explain the cause', 'file', 3],
    ]);
  });

  it('a bad line is a usage error naming the line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steer-'));
    const file = join(dir, 'steer.txt');
    writeFileSync(file, 'fine\n@nope what\n');
    const r = await runCli(['fix-a-bug', '--steer-file', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 2: "@" must be followed by a model-call number/);
  });
});
