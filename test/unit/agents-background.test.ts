/**
 * Background jobs against the real loop and just-bash: `run_in_background` returns at once with
 * an id, `bash_output` reads what is new, `kill_shell` stops a job, a finished job's notification
 * goes in before the next model call, and a model that stops while a job runs waits for it.
 */
import { describe, expect, it } from 'vitest';
import { agentLoop, agents, builtinTools, checkTranscript, FakeClock, WORKDIR, type RunResult, type TraceEvent } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

const tools = () => agents.agentTools(builtinTools(), new Set(['background']));
const bg = (command: string, description?: string) => ({
  type: 'tool_use' as const,
  name: 'bash',
  input: { command, run_in_background: true, ...(description ? { description } : {}) },
});

/**
 * Runs `script` and presses Stop (the run's signal) after the first event `when` matches: at once,
 * or with `whileWaiting` once the loop's next await has begun, as a click lands while it waits.
 */
async function stopAfter(script: Parameters<typeof setup>[0], when: (e: TraceEvent) => boolean, whileWaiting = false): Promise<{ events: TraceEvent[]; result: RunResult }> {
  const stop = new AbortController();
  const s = await setup(script, { tools: tools(), input: { signal: stop.signal } });
  const loop = agentLoop(s.input, s.deps);
  const events: TraceEvent[] = [];
  let step = await loop.next();
  while (!step.done) {
    events.push(step.value);
    if (when(step.value)) {
      if (whileWaiting) setTimeout(() => stop.abort(), 0);
      else stop.abort();
    }
    step = await loop.next();
  }
  return { events, result: step.value };
}

describe('background jobs in the loop', () => {
  it('returns at once, reads output so far, and notifies before the model call after it finishes', async () => {
    const { input, deps, client } = await setup(
      [
        { content: [bg('echo collecting; sleep 0.3; echo "5 passed"', 'run the tests')] },
        { content: [{ type: 'tool_use', name: 'bash_output', input: { bash_id: 'bash_1' } }] },
        { content: [{ type: 'text', text: 'The tests are still running; I will wait for them.' }] },
        { content: [{ type: 'text', text: 'All 5 tests passed.' }] },
      ],
      { tools: tools() },
    );
    const { events, result } = await drain(input, deps);
    const results = ofType(events, 'tool.result');
    expect(results[0]!.content).toMatch(/running in the background with id bash_1/);
    expect(results[1]!.content).toContain('<status>running</status>');
    expect(transitions(events)).toEqual(['next_turn', 'next_turn', 'background_notification', 'completed']);
    const note = ofType(events, 'background.notification');
    expect(note).toHaveLength(1);
    expect(note[0]).toMatchObject({ jobId: 'bash_1', status: 'completed', exitCode: 0 });
    // The 4th request carries the notification, with the end of the output, as the last user message.
    const last = client.requests[3]!.messages.at(-1)!;
    expect(JSON.stringify(last)).toContain('<shell-id>bash_1</shell-id>');
    expect(JSON.stringify(last)).toContain('5 passed');
    expect(result.reason).toBe('completed');
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('delivers a finished job at the next safe point, after the tool results', async () => {
    const { input, deps, client } = await setup(
      [
        { content: [bg('echo quick')] },
        // A slow foreground command: the background job is done by the time it returns.
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'sleep 0.2; echo slow' } }] },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
      { tools: tools() },
    );
    const { events } = await drain(input, deps);
    const note = ofType(events, 'background.notification')[0]!;
    const noteAt = events.indexOf(note);
    const thirdRequest = events.findIndex((e) => e.type === 'model.request' && e.turn === 3);
    expect(noteAt).toBeGreaterThan(events.findIndex((e) => e.type === 'tool.result' && e.name === 'bash' && e.content.includes('slow')));
    expect(noteAt).toBeLessThan(thirdRequest);
    const sent = client.requests[2]!.messages.at(-1)!.content as { type: string }[];
    expect(sent.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(transitions(events)).toEqual(['next_turn', 'next_turn', 'completed']);
  });

  it('kill_shell stops a job (no notification follows); unknown ids name the jobs that exist', async () => {
    const { input, deps } = await setup(
      [
        { content: [bg('sleep 30; echo never')] },
        { content: [{ type: 'tool_use', name: 'kill_shell', input: { shell_id: 'bash_9' } }] },
        { content: [{ type: 'tool_use', name: 'kill_shell', input: { shell_id: 'bash_1' } }] },
        { content: [{ type: 'tool_use', name: 'bash_output', input: { bash_id: 'bash_1' } }] },
        { content: [{ type: 'text', text: 'Stopped it.' }] },
      ],
      { tools: tools() },
    );
    const { events, result } = await drain(input, deps);
    const results = ofType(events, 'tool.result');
    expect(results[1]).toMatchObject({ isError: true });
    expect(results[1]!.content).toContain('Jobs of this run: bash_1');
    expect(results[2]!.content).toContain('Stopped background job bash_1');
    expect(results[3]!.content).toContain('<status>killed</status>');
    expect(ofType(events, 'background.notification')).toEqual([]);
    expect(result.reason).toBe('completed');
  });

  it('a run that ends with a job still running stops it and says so (max turns, Stop)', async () => {
    const script = [{ content: [bg('sleep 30; echo never')] }, { content: [{ type: 'tool_use' as const, name: 'bash', input: { command: 'echo busy' } }] }];
    const capped = await setup(script, { tools: tools(), input: { maxTurns: 1 } });
    const ended = await drain(capped.input, capped.deps);
    expect(ended.result.reason).toBe('max_turns');
    const stopped = ofType(ended.events, 'background.stopped');
    expect(stopped).toEqual([expect.objectContaining({ reason: 'max_turns', jobs: [expect.objectContaining({ id: 'bash_1', command: 'sleep 30; echo never' })] })]);
    // Reported before the exit's transition and run.end.
    expect(ended.events.at(-3)!.type).toBe('background.stopped');

    const { events, result } = await stopAfter(script, (e) => e.type === 'tool.result' && e.content.includes('busy'));
    expect(result.reason).toBe('aborted');
    expect(ofType(events, 'background.stopped')[0]).toMatchObject({ reason: 'aborted', jobs: [expect.objectContaining({ id: 'bash_1' })] });
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('Stop while the agent waits for its job ends the run as stopped, not completed, and stops the job', async () => {
    const script = [{ content: [bg('sleep 30; echo never')] }, { content: [{ type: 'text' as const, text: 'I will wait for the tests.' }] }];
    // The model stopped with the job running: the loop now waits for it, and the user presses Stop.
    const { events, result } = await stopAfter(script, (e) => e.type === 'message.appended' && e.message.role === 'assistant' && JSON.stringify(e.message).includes('wait for the tests'), true);
    expect(result.reason).toBe('aborted');
    expect(ofType(events, 'background.stopped')[0]).toMatchObject({ reason: 'aborted', jobs: [expect.objectContaining({ id: 'bash_1' })] });
    expect(ofType(events, 'background.notification')).toEqual([]);
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('without the background feature, bash has no run_in_background and rejects it', async () => {
    const { input, deps } = await setup([{ content: [bg('echo hi')] }, { content: [{ type: 'text', text: 'ok' }] }]);
    const { events } = await drain(input, deps);
    expect(ofType(events, 'tool.validated')[0]).toMatchObject({ ok: false });
  });
});

describe('BackgroundJobs', () => {
  it('a stopped run stops its jobs; output stays readable, and reads return only what is new', async () => {
    const sandbox = await createJustBashSandbox({ files: {} });
    const run = new AbortController();
    const jobs = new agents.BackgroundJobs(sandbox, new FakeClock(), run.signal);
    const quick = jobs.start({ command: 'echo one; echo two', cwd: WORKDIR, timeoutMs: 10_000 });
    const slow = jobs.start({ command: 'sleep 30', cwd: WORKDIR, timeoutMs: 60_000 });
    await jobs.waitForAny(new AbortController().signal);
    expect(jobs.readNew(quick.id)!.stdout).toBe('one\ntwo\n');
    expect(jobs.readNew(quick.id)!.stdout).toBe('');
    expect(jobs.running().map((j) => j.id)).toEqual([slow.id]);
    run.abort();
    await jobs.settled();
    expect(jobs.get(slow.id)!.status).toBe('killed');
    // The run's end killed it: only the job that finished on its own has a notification to give.
    expect(jobs.takeFinished().map((j) => j.id)).toEqual([quick.id]);
    expect(jobs.takeFinished()).toEqual([]);
    await sandbox.dispose();
  });
});

describe('background jobs on the just-bash Worker sandbox', () => {
  it('a job runs beside foreground commands in the worker thread, is read, and notifies', async () => {
    const { createWorkerSandbox } = await import('../../src/sandbox/justbash-worker/client.ts');
    const { spawnNodeWorker } = await import('./sandbox-worker-node.ts');
    const sandbox = await createWorkerSandbox({ spawn: spawnNodeWorker, files: { 'run-tests.sh': 'sleep 0.5\necho "7 passed"\n' } });
    try {
      const { input, deps } = await setup(
        [
          { content: [bg('sh run-tests.sh', 'run the tests')] },
          // Foreground work while the job runs: it must not wait for the job.
          { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo working' } }, { type: 'tool_use', name: 'bash_output', input: { bash_id: 'bash_1' } }] },
          { content: [{ type: 'text', text: 'Waiting for the tests.' }] },
          { content: [{ type: 'text', text: '7 passed.' }] },
        ],
        { tools: tools() },
      );
      const { events, result } = await drain(input, { ...deps, sandbox });
      const r = ofType(events, 'tool.result');
      expect(r[1]!.content).toBe('working');
      expect(r[2]!.content).toContain('<status>running</status>');
      expect(ofType(events, 'background.notification')[0]).toMatchObject({ status: 'completed', exitCode: 0 });
      expect(ofType(events, 'background.notification')[0]!.text).toContain('7 passed');
      expect(transitions(events)).toEqual(['next_turn', 'next_turn', 'background_notification', 'completed']);
      expect(result.reason).toBe('completed');
    } finally {
      await sandbox.dispose();
    }
  });
});
