/**
 * `type: "http"` hooks as Claude Code runs them, against a real loopback HTTP server: the input
 * JSON is POSTed; header values fill only `allowedEnvVars`; a 2xx JSON answer is read like a
 * command hook's stdout (a deny denies); a non-2xx status, no answer or a timeout is a non-blocking
 * error. The page's client calls only origins the user allowed, and a refusal is visible.
 * Real loop, real just-bash, real scripted model, real Node and page clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKDIR } from '../../src/harness/index.ts';
import { parseHooksConfig, type HooksConfig } from '../../src/harness/hooks/index.ts';
import type { LoopHooks } from '../../src/harness/loop/hook-site.ts';
import type { HttpHookClient } from '../../src/harness/ports.ts';
import { createNodeHttpHookClient } from '../../src/hooks-runtime/http-hook-client.ts';
import { createPageHttpHookClient } from '../../src/ui/state/page-http-hook-client.ts';
import { parseSettings } from '../../src/harness/settings/parse.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { deriveHookRows } from '../../src/ui/state/safety.ts';
import { startHookServer, type HookReply, type HookServer } from '../helpers/hook-server.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

let server: HookServer;
let next: HookReply = {};
beforeAll(async () => {
  server = await startHookServer(() => next);
});
afterAll(() => server.close());

const session = { sessionId: 's1', cwd: WORKDIR, permissionMode: 'default' };
const call = (command: string) => ({ content: [{ type: 'tool_use' as const, id: 't1', name: 'bash', input: { command } }] });
const said = (text: string) => ({ content: [{ type: 'text' as const, text }] });

function config(hook: Record<string, unknown>): HooksConfig {
  const parsed = parseHooksConfig({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: server.url, ...hook }] }] });
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.config;
}

async function run(hooks: LoopHooks) {
  const s = await setup([call('echo ran > out.txt'), said('done')]);
  const out = await drain(s.input, { ...s.deps, hooks });
  const ran = (await s.deps.sandbox.fs.stat(`${WORKDIR}/out.txt`)) !== null;
  return { ...out, ran, hookRun: ofType(out.events, 'hook.run')[0]! };
}

describe('http hooks (Node client)', () => {
  const client = createNodeHttpHookClient();

  it('POSTs the input JSON; headers fill only allowedEnvVars; a 2xx deny denies the call', async () => {
    next = { status: 200, body: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no echo today' } }) };
    const before = server.requests.length;
    const hooks: LoopHooks = {
      config: config({ headers: { Authorization: 'Bearer $HOOK_TOKEN', 'X-Other': 'x${SECRET}y' }, allowedEnvVars: ['HOOK_TOKEN'] }),
      session,
      httpClient: client,
      httpEnv: { HOOK_TOKEN: 'tok-123', SECRET: 'must-not-leave' },
    };
    const { ran, hookRun, result } = await run(hooks);
    const req = server.requests[before]!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'bash', tool_input: { command: 'echo ran > out.txt' }, session_id: 's1' });
    expect(req.headers.authorization).toBe('Bearer tok-123');
    // An unlisted variable becomes empty, as Claude Code's: the secret never leaves.
    expect(req.headers['x-other']).toBe('xy');
    expect(ran).toBe(false);
    expect(hookRun).toMatchObject({ hook: { type: 'http', url: server.url }, status: 200, exitCode: 0, decision: 'deny' });
    expect(JSON.stringify(result.messages)).toContain('no echo today');
    expect(explainEvent(hookRun).why).toContain('answered HTTP 200');
  });

  it('a non-2xx status is a non-blocking error: the call goes on', async () => {
    next = { status: 500, body: 'boom' };
    const { ran, hookRun } = await run({ config: config({}), session, httpClient: client });
    expect(ran).toBe(true);
    expect(hookRun).toMatchObject({ status: 500, exitCode: 1, decision: 'continue' });
    expect(hookRun.stderr).toContain('HTTP 500: boom');
  });

  it('a 2xx status alone never blocks, even with exit-2-like bodies; an empty body is plain success', async () => {
    next = { status: 204, body: '' };
    const { ran, hookRun } = await run({ config: config({}), session, httpClient: client });
    expect(ran).toBe(true);
    expect(hookRun).toMatchObject({ status: 204, exitCode: 0, decision: 'none' });
  });

  it('no answer within the timeout is a non-blocking timeout', async () => {
    next = { hold: true };
    const { ran, hookRun } = await run({ config: config({ timeout: 0.3 }), session, httpClient: client });
    expect(ran).toBe(true);
    expect(hookRun).toMatchObject({ timedOut: true, decision: 'continue' });
    expect(hookRun.status).toBeUndefined();
  });

  it('a settings file with an http hook loads it to run (no "not run here" warning)', () => {
    const r = parseSettings(JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: 'https://hooks.example.com/pre', headers: { A: '$T' }, allowedEnvVars: ['T'] }] }] } }), 'json');
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.warnings.map((w) => w.message).join('\n')).not.toMatch(/http/);
    expect(r.settings.hooks?.PreToolUse?.[0]?.hooks[0]).toMatchObject({ type: 'http', url: 'https://hooks.example.com/pre' });
  });
});

describe('http hooks in the page: only origins the user allowed', () => {
  const noLock = { lockedTo: () => null, extra: () => [] };

  it('an origin not in Settings → Hook endpoints is refused, visibly, and nothing is sent', async () => {
    const page: HttpHookClient = createPageHttpHookClient({ allowedOrigins: () => ['https://elsewhere.example'], lock: noLock });
    next = { status: 200, body: JSON.stringify({ decision: 'block', reason: 'x' }) };
    const before = server.requests.length;
    const { ran, hookRun, events } = await run({ config: config({}), session, httpClient: page });
    expect(server.requests.length).toBe(before);
    expect(ran).toBe(true);
    expect(hookRun).toMatchObject({ refused: true, decision: 'continue', exitCode: 1 });
    expect(hookRun.stderr).toContain(`${server.origin} is not an allowed hook endpoint`);
    expect(hookRun.stderr).toContain('Settings → Hook endpoints');
    // The hooks timeline shows it as a refusal, and Explain says why.
    expect(deriveHookRows(events)[0]).toMatchObject({ kind: 'run', hookType: 'http', refused: true });
    expect(explainEvent(hookRun).why).toContain('was not called');
  });

  it('an allowed origin is called', async () => {
    const page = createPageHttpHookClient({ allowedOrigins: () => [server.origin], lock: noLock });
    next = { status: 200, body: '' };
    const before = server.requests.length;
    const { hookRun } = await run({ config: config({}), session, httpClient: page });
    expect(server.requests.length).toBe(before + 1);
    expect(hookRun).toMatchObject({ status: 200, decision: 'none' });
  });

  it('the connect lock still applies: an allowed origin outside it is refused with the reload advice', async () => {
    const page = createPageHttpHookClient({ allowedOrigins: () => [server.origin], lock: { lockedTo: () => 'https://api.anthropic.com', extra: () => [] } });
    const before = server.requests.length;
    const { hookRun } = await run({ config: config({}), session, httpClient: page });
    expect(server.requests.length).toBe(before);
    expect(hookRun).toMatchObject({ refused: true });
    expect(hookRun.stderr).toMatch(/Reload the page/);
  });
});
