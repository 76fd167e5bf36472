/**
 * `type: "prompt"` hooks: the prompt (with `$ARGUMENTS` = the event's JSON) goes to a model
 * through the ModelClient port; `{"ok": false, "reason"}` blocks like exit 2, `{"ok": true}` lets
 * the event go on, an answer that is not that JSON is a non-blocking error.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR } from '../../src/harness/index.ts';
import { parseHooksConfig } from '../../src/harness/hooks/index.ts';
import { promptHookText } from '../../src/harness/hooks/prompt-hook.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const judge = (text: string) => createScriptedClient([{ content: [{ type: 'text', text }] }]);
const session = { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' };
const rm = { content: [{ type: 'tool_use' as const, id: 't1', name: 'bash', input: { command: 'rm -rf build' } }] };
const done = { content: [{ type: 'text' as const, text: 'ok' }] };
const prompt = 'Block any command that deletes files. Event: $ARGUMENTS';

describe('prompt hooks', () => {
  it('load from settings and put the input JSON where $ARGUMENTS is', () => {
    expect(parseHooksConfig({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt }] }] }).ok).toBe(true);
    const text = promptHookText(prompt, { hook_event_name: 'PreToolUse', tool_name: 'bash' });
    expect(text).toBe('Block any command that deletes files. Event: {"hook_event_name":"PreToolUse","tool_name":"bash"}');
  });

  it('{"ok": false} denies a PreToolUse call with the model\'s reason', async () => {
    const s = await setup([rm, done]);
    const model = judge('{"ok": false, "reason": "rm deletes files"}');
    const { events } = await drain(s.input, {
      ...s.deps,
      hooks: { config: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt }] }] }, session, promptModel: { client: model, model: 'judge' } },
    });
    const run = ofType(events, 'hook.run')[0]!;
    expect(run).toMatchObject({ event: 'PreToolUse', hook: { type: 'prompt', prompt }, exitCode: 2, decision: 'deny', reason: 'rm deletes files' });
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('rm -rf build');
    expect(ofType(events, 'tool.result')[0]!.content).toMatch(/rm deletes files/);
  });

  it('{"ok": true} lets the call go on; a reply that is not the JSON is a non-blocking error', async () => {
    for (const [text, exit] of [['{"ok": true}', 0], ['sure, fine', 1]] as const) {
      const s = await setup([rm, done]);
      const { events } = await drain(s.input, {
        ...s.deps,
        hooks: { config: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt }] }] }, session, promptModel: { client: judge(text), model: 'judge' } },
      });
      expect(ofType(events, 'hook.run')[0]!.exitCode).toBe(exit);
      expect(ofType(events, 'tool.result')[0]!.isError).toBe(false);
    }
  });
});
