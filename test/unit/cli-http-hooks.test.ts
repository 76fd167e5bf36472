/**
 * http hooks in the headless runner: a trusted scenario's `type: "http"` hook POSTs to a loopback
 * endpoint with `allowedEnvVars` filled from the runner's environment, and its answer's context
 * reaches the model; an untrusted one sends nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess, traceEvents } from '../helpers/cli.ts';
import { startHookServer, type HookServer } from '../helpers/hook-server.ts';

let server: HookServer;
beforeAll(async () => {
  server = await startHookServer(() => ({ status: 200, body: JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'Ticket ABC-1 is open.' } }) }));
});
afterAll(() => server.close());

function scenarioFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cli-http-hooks-')), 'http-hook.json');
  const hooks = { UserPromptSubmit: [{ hooks: [{ type: 'http', url: server.url, headers: { 'X-Token': 'Bearer ${HP_HOOK_TOKEN}', 'X-Home': '$HOME' }, allowedEnvVars: ['HP_HOOK_TOKEN'] }] }] };
  writeFileSync(path, JSON.stringify({ id: 'http-hook', title: 'http hook', description: 'test', prompt: 'Go.', files: {}, model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'done' }] }] }, settings: { maxTurns: 3, hooks } }));
  return path;
}

type Ev = { type: string; status?: number; hook?: { type: string }; request?: { messages: unknown } };

describe('http hooks headless', () => {
  it('a trusted scenario POSTs, with only the allowed variable filled, and the context reaches the model', async () => {
    const before = server.requests.length;
    const r = await runCliInProcess([scenarioFile(), '--trust', '--output-format', 'trace'], { ANTHROPIC_API_KEY: '', HP_HOOK_TOKEN: 'tok-9' });
    expect(r.code).toBe(0);
    const req = server.requests[before]!;
    expect(req.body).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'Go.' });
    expect(req.headers['x-token']).toBe('Bearer tok-9');
    expect(req.headers['x-home']).toBe('');
    const events = traceEvents<Ev>(r.stdout);
    expect(events.find((e) => e.type === 'hook.run')).toMatchObject({ hook: { type: 'http' }, status: 200 });
    expect(JSON.stringify(events.find((e) => e.type === 'model.request')!.request!.messages)).toContain('Ticket ABC-1 is open.');
  });

  it('--verbose prints the hook with its HTTP status', async () => {
    const r = await runCliInProcess([scenarioFile(), '--trust', '--verbose'], { ANTHROPIC_API_KEY: '', HP_HOOK_TOKEN: 'tok-9' });
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/hook UserPromptSubmit POST http:\/\/127\.0\.0\.1:\d+\/hook: HTTP 200/);
  });

  it('untrusted, the hook is not called', async () => {
    const before = server.requests.length;
    const r = await runCliInProcess([scenarioFile(), '--output-format', 'trace'], { ANTHROPIC_API_KEY: '' });
    expect(r.code).toBe(0);
    expect(server.requests.length).toBe(before);
  });
});
