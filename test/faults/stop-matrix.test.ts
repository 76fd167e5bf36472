/**
 * Issue 20 §1: Stop always stops. The page's Stop is an abort of the run's signal; a teammate's
 * shutdown aborts that teammate's signal the same way. Each waits on something different here —
 * a busy guest `node` program (just-bash on its own thread, as in the browser and the headless
 * runner), a sleeping bash command, a pending wait for a mailbox lock another tab holds, a pending
 * MCP call that never answers — both stops against all four, and each ends the run, closes the call with "interrupted", and leaves a
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
import { call, runAll, teamSetup, turn, type TeamSetup } from '../unit/teams-fixture.ts';

let fixture: McpFixture;
beforeAll(async () => {
  fixture = await startMcpFixture();
});
afterAll(async () => {
  await fixture.close();
});

/** Counts the clock's sleeps (lock retries are sleeps) and fails a wait that never ends instead of hanging. */
function countSleeps(clock: { sleep: (ms: number, signal?: AbortSignal) => Promise<void> }, onSleep?: (n: number) => void): { count: number } {
  const counter = { count: 0 };
  const sleep = clock.sleep.bind(clock);
  clock.sleep = async (ms, signal) => {
    if (++counter.count > 20_000) throw new Error('still waiting: the stop was not seen');
    onSleep?.(counter.count);
    return sleep(ms, signal);
  };
  return counter;
}

/** Resolves once no retry sleeps any more: the event loop turns until the count holds still for a while. */
async function settled(counter: { count: number }): Promise<void> {
  for (let quiet = 0; quiet < 50; ) {
    const before = counter.count;
    await new Promise((r) => setImmediate(r));
    quiet = counter.count === before ? quiet + 1 : 0;
  }
}

/** Runs the lead, and stops the team as soon as bob's first tool call of `tool` started. */
async function shutDownBobDuring(s: TeamSetup, tool: string): Promise<{ type: string; agentId?: string; content?: unknown }[]> {
  let stopped: Promise<void> | undefined;
  const drained: { type: string; agentId?: string; content?: unknown }[] = [];
  const { events } = await runAll(s, (e) => {
    if (e.type === 'tool.started' && e.agentId === 'teammate-bob' && e.name === tool && !stopped) stopped = s.team.stop(async (d) => void drained.push(d));
  });
  expect(stopped).toBeDefined();
  await stopped;
  return [...events, ...drained];
}

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
      // A stop, not a server timeout (the SDK reports an aborted request as a -32001 timeout).
      expect(ofType(events, 'tool.result')[0]!.content).not.toMatch(/timed out/);
      expect(ofType(events, 'mcp.error').map((e) => e.message).join('\n')).not.toMatch(/timed out/);
    } finally {
      await registry.closeAll();
    }
  });

  it("ends the lead's wait for a mailbox lock another tab holds: aborted promptly, nothing reported sent", async () => {
    const stop = new AbortController();
    // Once bob is spawned, another tab takes bob's inbox lock (a fresh owner record: never stale within this test).
    const hold = `mkdir -p .team/locks/inbox-bob.lock && echo '{"holder":"another-tab","at":0}' > .team/locks/inbox-bob.lock/owner.json`;
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'bob', prompt: 'wait' })), turn(call('bash', { command: hold })), turn(call('send_message', { to: 'bob', body: 'hello' })), turn({ type: 'text', text: 'not reached' })],
      { bob: [turn({ type: 'text', text: 'idle' })] },
      { runtime: { lockStaleMs: 600_000, lockRetryMs: 10 }, signal: stop.signal },
    );
    // Stop is pressed while the lead waits: at its first retry sleep (the lock wait's).
    let sleepsWhenStopped = -1;
    const sleeps = countSleeps(s.clock, (n) => {
      if (stop.signal.aborted) return;
      sleepsWhenStopped = n;
      stop.abort();
    });
    const { events, result } = await runAll(s);
    expect(sleepsWhenStopped).toBe(1);
    expect(sleeps.count - sleepsWhenStopped).toBeLessThan(100);
    expect(result.reason).toBe('aborted');
    expect(checkTranscript(result.messages)).toEqual([]);
    const sent = ofType(events, 'tool.result').find((e) => e.name === 'send_message');
    expect(sent).toBeDefined();
    expect(sent!.content).toMatch(/interrupted/);
    expect(sent!.content).not.toMatch(/^Sent/);
    expect(ofType(events, 'mailbox.sent').map((e) => e.message.body)).not.toContain('hello');
    // The wait itself ended (not just the loop's view of it): once the other tab lets go and every
    // pending retry has run, a wait left behind would take the lock and deliver the mail after Stop.
    await s.deps.sandbox.fs.rm(`${s.deps.sandbox.workdir}/.team/locks/inbox-bob.lock`, { recursive: true, force: true });
    await settled(sleeps);
    expect((await s.deps.sandbox.exec('cat .team/inbox/bob.jsonl')).stdout).not.toContain('hello');
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

  it('interrupts its busy guest node program (the worker sandbox) and ends it shut_down', async () => {
    const sandbox = await createWorkerSandbox({ spawn: spawnNodeWorker });
    try {
      const s = await teamSetup(
        [turn(call('spawn_teammate', { name: 'bob', prompt: 'spin' })), turn(call('read_inbox', {})), turn({ type: 'text', text: 'done' })],
        { bob: [turn(call('bash', { command: "node -e 'for(;;){}'", timeout: 600_000 })), turn({ type: 'text', text: 'not reached' })] },
        { sandbox },
      );
      const all = await shutDownBobDuring(s, 'bash');
      const bobResults = all.filter((e) => e.type === 'tool.result' && e.agentId === 'teammate-bob').map((e) => String(e.content));
      expect(bobResults.join('\n')).toMatch(/interrupted/);
      expect(bobResults.join('\n')).not.toMatch(/timed out/);
      expect(s.team.members.get('bob')!.state).toBe('shut_down');
      expect(checkTranscript(s.team.members.get('bob')!.history)).toEqual([]);
      // The shared sandbox goes on for the lead.
      expect((await sandbox.exec('echo still here')).stdout).toBe('still here\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('interrupts its MCP call that never answers and ends it shut_down', async () => {
    const registry = new mcp.McpRegistry(createNodeMcpConnector(), () => Date.now(), 5_000);
    expect(registry.set({ name: 'lb', transport: 'http', url: fixture.url, scope: 'user' })).toBeNull();
    await registry.connectAll();
    try {
      const s = await teamSetup(
        [turn(call('spawn_teammate', { name: 'bob', prompt: 'ask the server' })), turn(call('read_inbox', {})), turn({ type: 'text', text: 'done' })],
        { bob: [turn(call('mcp__lb__slow', { ms: 600_000 })), turn({ type: 'text', text: 'not reached' })] },
        { tools: () => registry.tools() },
      );
      const all = await shutDownBobDuring(s, 'mcp__lb__slow');
      const bobResults = all.filter((e) => e.type === 'tool.result' && e.agentId === 'teammate-bob').map((e) => String(e.content));
      expect(bobResults.join('\n')).toMatch(/interrupted/);
      expect(bobResults.join('\n')).not.toMatch(/timed out/);
      expect(s.team.members.get('bob')!.state).toBe('shut_down');
      expect(checkTranscript(s.team.members.get('bob')!.history)).toEqual([]);
    } finally {
      await registry.closeAll();
    }
  });
});
