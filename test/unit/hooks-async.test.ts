/**
 * Background hooks, as Claude Code's `async: true` / `asyncRewake: true` command hooks: the event
 * does not wait for them, they cannot block, their `systemMessage` / `additionalContext` reach the
 * model before the next model call (the next prompt's, when the session keeps its inbox), and an
 * `asyncRewake` hook that exits 2 wakes the agent after it stopped. Real loop, just-bash, scripted model.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR, type Message, type TraceEvent } from '../../src/harness/index.ts';
import { AsyncHookInbox, parseHooksConfig, type HooksConfig } from '../../src/harness/hooks/index.ts';
import type { LoopHooks } from '../../src/harness/loop/hook-site.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { deriveHookRows } from '../../src/ui/state/safety.ts';
import { drain, ofType, setup, transitions } from './loop-helpers.ts';

const session = { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' };
const said = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const call = (command: string, id: string) => ({ content: [{ type: 'tool_use' as const, id, name: 'bash', input: { command } }] });
const requests = (events: TraceEvent[]) => ofType(events, 'model.request').map((e) => JSON.stringify(e.request.messages));

function hooksOf(raw: unknown, asyncHooks?: AsyncHookInbox): LoopHooks {
  const parsed = parseHooksConfig(raw);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return { config: parsed.config as HooksConfig, session, ...(asyncHooks ? { asyncHooks } : {}) };
}

/** A hook that cannot finish before the file `go` exists: proof the loop did not wait for it. */
const waitsForGo = (then: string) => `while [ ! -f ${WORKDIR}/go ]; do sleep 0.01; done; ${then}`;

describe('async: true', () => {
  it('the tool call does not wait: a PreToolUse hook waiting for the file the call itself writes', async () => {
    // Were the loop to wait for the hook, the call that creates `go` could never run (a hang).
    // The second call waits until a hook has finished (`hookdone`), so the model call after it
    // comes once one has: the report does not depend on how fast a loaded machine runs the hook.
    const s = await setup([call('touch go', 't1'), call(`while [ ! -f ${WORKDIR}/hookdone ]; do sleep 0.01; done; echo second`, 't2'), said('done')]);
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: hooksOf({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', async: true, command: waitsForGo(`touch ${WORKDIR}/hookdone; echo '{"decision":"block","reason":"too late to block","systemMessage":"lint: 2 warnings"}'`) }] }] }),
    });
    expect(result.reason).toBe('completed');
    const started = ofType(events, 'hook.async_started');
    expect(started.map((e) => e.event)).toEqual(['PreToolUse', 'PreToolUse']);
    expect(started[0]).toMatchObject({ id: 'async-1', rewake: false, hook: { type: 'command' } });
    // Started before its tool ran; a block from a background hook blocks nothing.
    const types = events.map((e) => e.type);
    expect(types.indexOf('hook.async_started')).toBeLessThan(types.indexOf('tool.result'));
    expect(ofType(events, 'tool.result').every((r) => !r.isError)).toBe(true);
    // A finished one reports with `background`, and is explained and shown in the timeline.
    const finished = ofType(events, 'hook.run').filter((r) => r.background);
    expect(finished.length).toBeGreaterThan(0);
    expect(finished[0]!.background).toEqual({ id: expect.stringMatching(/^async-/), rewake: false });
    expect(explainEvent(started[0]!).why).toContain('background job async-1');
    expect(explainEvent(finished[0]!).why).toContain('could not block anything');
    expect(deriveHookRows(events).map((r) => r.kind)).toContain('async_started');
  });

  it("a finished hook's systemMessage reaches the model before the next call — the next prompt's, with the session's inbox", async () => {
    const inbox = new AsyncHookInbox();
    const hooks = hooksOf({ Stop: [{ hooks: [{ type: 'command', async: true, command: `echo '{"systemMessage":"coverage fell to 71%","hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"see coverage.txt"}}'` }] }] }, inbox);
    const first = await setup([said('done'), said('I will look at coverage.')]);
    const one = await drain(first.input, { ...first.deps, hooks });
    expect(one.result.reason).toBe('completed');
    expect(ofType(one.events, 'hook.async_started')).toHaveLength(1);
    // Nothing of it reached the model in the run that started it.
    expect(requests(one.events).join()).not.toContain('coverage fell');
    await inbox.idle();
    const history: Message[] = [...one.result.messages, { role: 'user', content: 'next?' }];
    const two = await drain({ ...first.input, messages: history }, { ...first.deps, hooks });
    const [req] = requests(two.events);
    expect(req).toContain('coverage fell to 71%');
    expect(req).toContain('see coverage.txt');
    const run = ofType(two.events, 'hook.run')[0]!;
    expect(run).toMatchObject({ event: 'Stop', background: { id: 'async-1', rewake: false }, exitCode: 0 });
    // It reports before the request that carries it.
    const types = two.events.map((e) => e.type);
    expect(types.indexOf('hook.run')).toBeLessThan(types.indexOf('model.request'));
  });
});

describe('asyncRewake: true', () => {
  it('exit 2 after the model stopped wakes the agent with the stderr (async_hook_rewake)', async () => {
    const s = await setup([call('echo build', 't1'), call('touch go', 't2'), said('All done.'), said('Fixing the failing test.')]);
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: hooksOf({ PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', asyncRewake: true, command: waitsForGo(`[ -f ${WORKDIR}/reported ] && exit 0; touch ${WORKDIR}/reported; echo 'test_login failed' >&2; exit 2`) }] }] }),
    });
    expect(result.reason).toBe('completed');
    expect(transitions(events)).toEqual(['next_turn', 'next_turn', 'async_hook_rewake', 'completed']);
    const woke = ofType(events, 'hook.run').find((r) => r.background?.rewake)!;
    expect(woke).toMatchObject({ event: 'PostToolUse', exitCode: 2 });
    // The model's fourth call carries the hook's words.
    const fourth = requests(events)[3]!;
    expect(fourth).toContain('test_login failed');
    expect(ofType(events, 'hook.async_started').every((e) => e.rewake)).toBe(true);
    expect(explainEvent(ofType(events, 'transition').find((t) => t.reason === 'async_hook_rewake')!).why.length).toBeGreaterThan(3);
  });

  it('a rewake hook that exits 0 does not wake the agent', async () => {
    const s = await setup([call('echo build', 't1'), said('All done.')]);
    const { events } = await drain(s.input, {
      ...s.deps,
      hooks: hooksOf({ PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', asyncRewake: true, command: 'echo fine' }] }] }),
    });
    expect(transitions(events)).toEqual(['next_turn', 'completed']);
  });
});
