/**
 * Issue 20 §4: a 429 whose `retry-after` is longer than the run waits stops the run, and the
 * message says that one thing — not also "The request will be retried". Over the real SDK and the
 * fake Anthropic server, so the header travels the wire as it would from the API.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAnthropicClient } from '../../src/model/anthropic/client.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../fixtures/fake-anthropic-server.ts';
import { drain, ofType, setup } from '../unit/loop-helpers.ts';

let server: FakeAnthropicServer;
beforeAll(async () => {
  server = await startFakeAnthropicServer();
});
afterAll(async () => {
  await server.close();
});

async function runAgainst(turns: Parameters<FakeAnthropicServer['setTurns']>[0]) {
  server.setTurns(turns);
  const s = await setup([]);
  const out = await drain(s.input, { ...s.deps, model: createAnthropicClient({ apiKey: 'sk-test-dummy', baseURL: server.url }) });
  return { ...out, clock: s.clock };
}

const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'g')) ?? []).length;

it.each([
  [429, 'rate_limit_error', /^Rate limited by the API \(HTTP 429 rate_limit_error: /],
  [529, 'overloaded_error', /^The API is overloaded \(HTTP 529 overloaded_error: /],
])('a %i with retry-after: 3600 stops the run, and the message says so once, promising no retry', async (status, errorType, opening) => {
  const { events, result, clock } = await runAgainst([{ fault: { kind: 'http', status, errorType, retryAfterSeconds: 3600 } }, { content: [{ type: 'text', text: 'never' }] }]);
  expect(result.reason).toBe('model_error');
  expect(clock.sleeps).toEqual([]);
  const message = result.error!.message;
  expect(message).toMatch(opening);
  expect(message).toMatch(/asked to wait 1 h 0 min before retrying — longer than the 1 min this run waits — so the run stopped/);
  expect(message).not.toMatch(/will be retried|Retry in a moment/i);
  expect(count(message, /asked to wait/)).toBe(1);
  expect(ofType(events, 'model.error').map((e) => e.error.message)).toEqual([message]);
});

it('a 429 with a short retry-after is waited out; its message states the fault and the wait asked, no promise', async () => {
  const { events, result, clock } = await runAgainst([{ fault: { kind: 'http', status: 429, errorType: 'rate_limit_error', retryAfterSeconds: 3 } }, { content: [{ type: 'text', text: 'ok' }] }]);
  expect(result.reason).toBe('completed');
  expect(clock.sleeps).toEqual([3000]);
  const [err] = ofType(events, 'model.error');
  expect(err!.retryInMs).toBe(3000);
  expect(err!.error.message).toMatch(/^Rate limited by the API \(HTTP 429 rate_limit_error: [^)]*\)\. The server asked to wait 3 s before retrying\.$/);
});
