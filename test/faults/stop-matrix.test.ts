/**
 * Issue 20 §1: Stop always stops. The page's Stop is an abort of the run's signal; a teammate's
 * shutdown aborts that teammate's signal the same way. Each waits on something different here —
 * a busy guest `node` program (just-bash on its own thread, as in the browser and the headless
 * runner), a sleeping bash command, a pending MCP call that never answers (a pending lock wait:
 * lock-owner.test.ts) — and each ends the run, closes the call with "interrupted", and leaves a
 * valid transcript.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLoop, mcp, type LoopInput, type TraceEvent } from '../../src/harness/index.ts';
import type { LoopDeps } from '../../src/harness/loop/types.ts';
import { checkTranscript } from '../../src/harness/loop/check-transcript.ts';
import { createNodeMcpConnector } from '../../src/mcp/node.ts';
import { createWorkerSandbox } from '../../src/sandbox/justbash-worker/client.ts';
import { startMcpFixture, type McpFixture } from '../fixtures/mcp-server.ts';
import { ofType, setup } from '../unit/loop-helpers.ts';
import { spawnNodeWorker } from '../unit/sandbox-worker-node.ts';
import { call, runAll, teamSetup, turn } from '../unit/teams-fixture.ts';

let fixture: McpFixture;
beforeAll(async () => {
  fixture = await startMcpFixture();
});
afterAll(async () => {
  await fixture.close();
});

/** Runs the loop and presses Stop as soon as the first tool call started. */
async function stopWhenStarted(input: LoopInput, deps: LoopDeps, stop: AbortController): Promise<{ events: TraceEvent[]; reason: string; problems: string[] }> {
  const loop = agentLoop(input, deps);
  const events: TraceEvent[] = [];
  let step = await loop.next();
  while (!step.done) {
    events.push(step.value);
    if (step.value.type === 'tool.started') stop.abort();
    step = await loop.next();
  }
  return { events, reason: step.value.reason, problems: checkTranscript(step.value.messages) };
}

describe("the page's Stop", () => {
  it('interrupts a busy guest node program (the sandbox on its own thread)', async () => {
    const stop = new AbortController();
    const s = await setup([turn(call('bash', { command: "node -e 'for(;;){}'", timeout: 600_000 })), turn({ type: 'text', text: 'not reached' })], { input: { signal: stop.signal } });
    const sandbox = await createWorkerSandbox({ spawn: spawnNodeWorker });
    try {
      const { events, reason, problems } = await stopWhenStarted(s.input, { ...s.deps, sandbox }, stop);
      expect(reason).toBe('aborted');
      expect(problems).toEqual([]);
      const [result] = ofType(events, 'tool.result');
      expect(result!.content).toMatch(/interrupted/);
      expect(result!.content).not.toMatch(/timed out/);
      // The sandbox goes on: the next command runs.
      expect((await sandbox.exec('echo still here')).stdout).toBe('still here\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('interrupts a sleeping bash command', async () => {
    const stop = new AbortController();
    const s = await setup([turn(call('bash', { command: 'sleep 600', timeout: 600_000 })), turn({ type: 'text', text: 'not reached' })], { input: { signal: stop.signal } });
    const { events, reason, problems } = await stopWhenStarted(s.input, s.deps, stop);
    expect(reason).toBe('aborted');
    expect(problems).toEqual([]);
    expect(ofType(events, 'tool.result')[0]!.content).toMatch(/interrupted/);
  });

  it('interrupts an MCP call that never answers', async () => {
    const registry = new mcp.McpRegistry(createNodeMcpConnector(), () => Date.now(), 5_000);
    expect(registry.set({ name: 'lb', transport: 'http', url: fixture.url, scope: 'user' })).toBeNull();
    await registry.connectAll();
    try {
      const stop = new AbortController();
      const s = await setup([turn(call('mcp__lb__slow', { ms: 600_000 })), turn({ type: 'text', text: 'not reached' })], { input: { signal: stop.signal, preludeEvents: registry.drainEvents() } });
      s.input.tools = [...s.input.tools, ...registry.tools()];
      const { events, reason, problems } = await stopWhenStarted(s.input, s.deps, stop);
      expect(reason).toBe('aborted');
      expect(problems).toEqual([]);
      expect(ofType(events, 'tool.result')[0]!.content).toMatch(/interrupted/);
    } finally {
      await registry.closeAll();
    }
  });
});

describe("a teammate's shutdown (Team.stop: the same abort, per teammate)", () => {
  it('interrupts its sleeping command, closes its transcript and ends it shut_down', async () => {
    const s = await teamSetup([turn(call('spawn_teammate', { name: 'bob', prompt: 'sleep' })), turn(call('read_inbox', {})), turn({ type: 'text', text: 'done' })], {
      bob: [turn(call('bash', { command: 'sleep 600', timeout: 600_000 })), turn({ type: 'text', text: 'not reached' })],
    });
    // The lead pumps the team; once bob's command started, the team is stopped (as the lead's end or the page's Stop does).
    let stopped: Promise<void> | undefined;
    const drained: { type: string; agentId?: string; content?: unknown }[] = [];
    const { events } = await runAll(s, (e) => {
      if (e.type === 'tool.started' && e.agentId === 'teammate-bob' && !stopped) stopped = s.team.stop(async (d) => void drained.push(d));
    });
    await stopped;
    const all: { type: string; agentId?: string; content?: unknown }[] = [...events, ...drained];
    const bobResults = all.filter((e) => e.type === 'tool.result' && e.agentId === 'teammate-bob');
    expect(bobResults.map((e) => String(e.content)).join('\n')).toMatch(/interrupted/);
    expect(s.team.members.get('bob')!.state).toBe('shut_down');
    expect(checkTranscript(s.team.members.get('bob')!.history)).toEqual([]);
  });

  it('ends its wait for a mailbox lock another tab holds (the lock wait takes the teammate\'s own signal)', async () => {
    const hold = `mkdir -p .team/locks/inbox-lead.lock && echo '{"holder":"another-tab","at":1}' > .team/locks/inbox-lead.lock/owner.json`;
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'bob', prompt: 'report' })), turn(call('read_inbox', {})), turn({ type: 'text', text: 'done' })],
      { bob: [turn(call('bash', { command: hold })), turn(call('send_message', { to: 'lead', body: 'report' })), turn({ type: 'text', text: 'not reached' })] },
      { runtime: { lockStaleMs: 600_000, lockRetryMs: 10 } },
    );
    let sleeps = 0;
    const sleep = s.clock.sleep.bind(s.clock);
    s.clock.sleep = async (ms, signal) => {
      if (++sleeps > 20_000) throw new Error('still waiting for the lock: the shutdown was not seen');
      return sleep(ms, signal);
    };
    let stopped: Promise<void> | undefined;
    let sleepsWhenStopped = -1;
    const drained: { type: string; agentId?: string; content?: unknown }[] = [];
    await runAll(s, (e) => {
      if (e.type === 'tool.started' && e.agentId === 'teammate-bob' && e.name === 'send_message' && !stopped) {
        stopped = s.team.stop(async (d) => void drained.push(d)).then(() => {
          sleepsWhenStopped = sleeps;
          // Then the other tab lets go, so the lead can read its own inbox and finish.
          return s.deps.sandbox.fs.rm(`${s.deps.sandbox.workdir}/.team/locks/inbox-lead.lock`, { recursive: true, force: true });
        });
      }
    });
    await stopped;
    expect(sleepsWhenStopped).toBeGreaterThanOrEqual(0);
    expect(sleepsWhenStopped).toBeLessThan(100);
    expect(s.team.members.get('bob')!.state).toBe('shut_down');
    expect(checkTranscript(s.team.members.get('bob')!.history)).toEqual([]);
    expect(drained.some((e) => e.type === 'mailbox.sent')).toBe(false);
  });
});
