/**
 * Issue 20 §1: Ctrl-C in the headless runner always stops it — during start-up on a big folder
 * too (exit 130, no model request, nothing written back, said on stderr), and a second Ctrl-C does
 * not kill the process half-way.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { startCli } from './cli-fixture.ts';

const KEY = 'sk-ant-test-faults-0123456789';
let server: FakeAnthropicServer;

/** A folder big enough that reading and preparing it takes a while. */
function bigFolder(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'hp-faults-big-'));
  writeFileSync(join(dir, 'a.txt'), 'original\n');
  for (let d = 0; d < files / 100; d++) {
    mkdirSync(join(dir, `pkg${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(dir, `pkg${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
  }
  return dir;
}

beforeAll(async () => {
  server = await startFakeAnthropicServer({
    turns: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo edited > a.txt' } }] }, { content: [{ type: 'text', text: 'done' }] }],
    requireApiKey: KEY,
  });
});
afterAll(async () => {
  await server.close();
});

const BUSY = "node -e 'for(;;){}'";

describe('Ctrl-C during a busy guest program', () => {
  it('interrupts it at once (not at the bash timeout): exit 130, the result says interrupted by the user, nothing written back', async () => {
    server.setTurns([{ content: [{ type: 'tool_use', name: 'bash', input: { command: BUSY } }] }, { content: [{ type: 'text', text: 'never asked' }] }]);
    const dir = mkdtempSync(join(tmpdir(), 'hp-faults-busy-'));
    writeFileSync(join(dir, 'a.txt'), 'original\n');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash'] } }));
    const before = server.requests.length;
    const run = startCli(['--dir', dir, '-p', 'spin', '--write-back', '--trust', '--output-format', 'trace'], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    await run.waitForStdout(/"type":"tool\.started"/);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    const results = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; content?: unknown; reason?: string })
      .filter((e) => e.type === 'tool.result')
      .map((e) => JSON.stringify(e.content));
    expect(results).toHaveLength(1);
    expect(results[0]).toMatch(/interrupted/i);
    expect(results[0]).not.toMatch(/timed out/i);
    expect(r.stdout).toMatch(/"type":"run\.end"[^\n]*"reason":"aborted"/);
    // The model was asked once (for the call), never again after the stop.
    expect(server.requests.length - before).toBe(1);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('original\n');
  });
});

describe('Ctrl-C during start-up', () => {
  it('ends the run with 130, calls no model, writes nothing back, and says so', async () => {
    const dir = bigFolder(5_000);
    const before = server.requests.length;
    const run = startCli(['--dir', dir, '-p', 'edit a.txt', '--write-back', '--trust', '--verbose'], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url });
    await run.waitForStderr(/reading the folder/);
    run.child.kill('SIGINT');
    // A second Ctrl-C while it stops must not kill it half-way.
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/stopped with Ctrl-C before the run started: nothing ran, nothing written back/);
    expect(server.requests.length - before).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('original\n');
  });
});
