import { describe, expect, it } from 'vitest';
import { createNodeJsHookRunner } from '../../src/hooks-runtime/node-runner.ts';
import { config, hooksFixture, PRE_BASH } from './hooks-fixture.ts';

const runner = createNodeJsHookRunner();
const run = (code: string, input: unknown = {}, timeoutMs = 10_000) => runner.run(code, input, { timeoutMs });

describe('Node JS hook runner (worker_threads)', () => {
  it('gives the hook its input and returns an object as JSON stdout (console.log dropped)', async () => {
    const r = await run('console.log("noise"); return { decision: "block", reason: input.tool_input.command }', { tool_input: { command: 'rm -rf /' } });
    expect(r).toEqual({ exitCode: 0, stdout: '{"decision":"block","reason":"rm -rf /"}', stderr: '', timedOut: false });
  });

  it('sends console.log to stdout and console.error to stderr when nothing is returned', async () => {
    const r = await run('console.log("hello", { a: 1 }); console.info(2); console.error("careful"); console.warn("w")');
    expect(r).toEqual({ exitCode: 0, stdout: 'hello {"a":1}\n2\n', stderr: 'careful\nw\n', timedOut: false });
  });

  it('returns a string or number as plain stdout', async () => {
    expect(await run('return "some context"')).toMatchObject({ exitCode: 0, stdout: 'some context' });
    expect(await run('return 42')).toMatchObject({ exitCode: 0, stdout: '42' });
  });

  it('{ block: reason } is exit 2 with the reason on stderr', async () => {
    expect(await run('return { block: "not on main" }')).toEqual({ exitCode: 2, stdout: '', stderr: 'not on main', timedOut: false });
    expect(await run('return { block: true }')).toMatchObject({ exitCode: 2, stderr: 'blocked by a JS hook' });
  });

  it('{ exitCode, stdout, stderr } sets the process result directly', async () => {
    expect(await run('return { exitCode: 3, stderr: "odd" }')).toEqual({ exitCode: 3, stdout: '', stderr: 'odd', timedOut: false });
  });

  it('a thrown error is exit 1 with the message on stderr', async () => {
    const r = await run('console.error("before"); throw new TypeError("boom")');
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'before\nTypeError: boom\n', timedOut: false });
  });

  it('code that does not compile is exit 1 saying so', async () => {
    const r = await run('return (');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^The hook's code does not compile: SyntaxError/);
  });

  it('awaits async work', async () => {
    expect(await run('await new Promise((r) => setTimeout(r, 1)); return { ok: true }')).toMatchObject({ stdout: '{"ok":true}' });
  });

  it('stops a busy loop at its timeout', async () => {
    const r = await run('while (true) {}', {}, 300);
    expect(r).toMatchObject({ exitCode: 124, timedOut: true, stderr: 'The JS hook did not finish within 300 ms and was stopped.' });
  });

  it('stops a busy loop that starts after an await', async () => {
    expect(await run('await null; for (;;) {}', {}, 300)).toMatchObject({ exitCode: 124, timedOut: true });
  });

  it('ends a hook awaiting something that can never settle as a non-blocking failure', async () => {
    // Node ends a worker with nothing left to do, so this fails at once instead of at the timeout.
    const r = await run('await new Promise(() => {})', {}, 60_000);
    expect(r).toMatchObject({ exitCode: 1, timedOut: false });
    expect(r.stderr).toMatch(/without an answer: the hook awaited something that can never settle/);
  });

  it('stops when the signal fires', async () => {
    const ac = new AbortController();
    const p = runner.run('while (true) {}', {}, { timeoutMs: 60_000, signal: ac.signal });
    ac.abort();
    expect(await p).toMatchObject({ exitCode: 130, timedOut: false });
  });

  it('gets a plain JSON copy of the input and not the worker plumbing', async () => {
    const r = await run(
      'return { keys: Object.keys(input), when: typeof input.when, require: typeof require, port: typeof parentPort, data: typeof workerData }',
      { when: new Date(0), a: 1 },
    );
    expect(JSON.parse(r.stdout)).toEqual({ keys: ['when', 'a'], when: 'string', require: 'undefined', port: 'undefined', data: 'undefined' });
  });
});

describe('Node JS hook runner isolation (vm context in the worker)', () => {
  it('has no require, process, Buffer, fetch or module plumbing in the hook realm', async () => {
    const r = await run(
      'return [typeof require, typeof process, typeof Buffer, typeof fetch, typeof module, typeof globalThis.process, typeof WebAssembly.compile === "function"]',
    );
    expect(JSON.parse(r.stdout)).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', true]);
  });

  it('cannot climb from the timers or the input to the host realm', async () => {
    const r = await run(
      `const probe = (f) => { try { return f.constructor("return typeof process")(); } catch (e) { return "threw"; } };
       const id = setTimeout(() => {}, 0);
       clearTimeout(id);
       return { timer: probe(setTimeout), id: typeof id, input: probe(input.constructor.constructor), console: probe(console.log) }`,
      { a: 1 },
    );
    expect(JSON.parse(r.stdout)).toEqual({ timer: 'undefined', id: 'number', input: 'undefined', console: 'undefined' });
  });

  it('keeps working timers (setTimeout, setInterval, clearInterval)', async () => {
    const r = await run('let n = 0; await new Promise((done) => { const t = setInterval(() => { if (++n === 3) { clearInterval(t); done(); } }, 1); }); return { n }');
    expect(r).toMatchObject({ exitCode: 0, stdout: '{"n":3}' });
  });

  it('stops a hook that exhausts its memory cap with a clear error', async () => {
    const r = await run('const keep = []; for (;;) keep.push(new Array(1e5).fill(keep.length));', {}, 60_000);
    expect(r).toEqual({ exitCode: 1, stdout: '', stderr: 'The JS hook ran out of memory (its cap is 64 MB) and was stopped.', timedOut: false });
  });
});

describe('runHooks with JS hooks', () => {
  it('a JS PreToolUse hook denies through hookSpecificOutput', async () => {
    const f = await hooksFixture();
    const code = `if (input.tool_input.command.startsWith('ls')) return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'use glob' } };`;
    const r = await f.run(PRE_BASH, config({ PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'js', name: 'no ls', code }] }] }));
    expect(r.outcome).toMatchObject({ decision: 'deny', block: true, reason: 'use glob' });
    expect(r.runs[0]).toMatchObject({ hook: { type: 'js', name: 'no ls' }, exitCode: 0, decision: 'deny' });
  });

  it('a JS Stop hook blocks stopping with { block }', async () => {
    const f = await hooksFixture();
    const code = `if (!input.stop_hook_active) return { block: 'run the tests first' };`;
    const cfg = config({ Stop: [{ hooks: [{ type: 'js', code }] }] });
    expect((await f.run({ event: 'Stop', stopHookActive: false }, cfg)).outcome).toMatchObject({ block: true, reason: 'run the tests first' });
    expect((await f.run({ event: 'Stop', stopHookActive: true }, cfg)).outcome.block).toBeUndefined();
  });

  it('a throwing or looping JS hook never stops the agent', async () => {
    const f = await hooksFixture();
    const r = await f.run(
      PRE_BASH,
      config({ PreToolUse: [{ hooks: [{ type: 'js', name: 'thrower', code: 'throw new Error("oops")' }, { type: 'js', name: 'spinner', code: 'for(;;){}', timeout: 0.3 }] }] }),
    );
    expect(r.outcome.decision).toBeUndefined();
    expect(r.outcome.block).toBeUndefined();
    expect(r.outcome.userMessages).toEqual([
      'PreToolUse JS hook "thrower" failed (exit 1): Error: oops; the agent goes on.',
      'PreToolUse JS hook "spinner" timed out after 0.3 s and was skipped; the agent goes on.',
    ]);
  });

  it('without a runner, a JS hook is a non-blocking error that says what is missing', async () => {
    const f = await hooksFixture();
    const r = await f.run(PRE_BASH, config({ PreToolUse: [{ hooks: [{ type: 'js', code: 'return { block: "x" }' }] }] }), { jsRunner: undefined });
    expect(r.outcome.block).toBeUndefined();
    expect(r.outcome.userMessages[0]).toMatch(/JS hooks need a JS hook runner/);
  });

  it('JS and command hooks of one event run together and aggregate', async () => {
    const f = await hooksFixture();
    const r = await f.run(
      PRE_BASH,
      config({
        PreToolUse: [
          { hooks: [{ type: 'js', code: `return { hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'ls -1' } } }` }] },
          { hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"confirm"}}'` }] },
        ],
      }),
    );
    expect(r.outcome).toMatchObject({ decision: 'ask', reason: 'confirm', updatedInput: { command: 'ls -1' }, ran: 2 });
  });
});
