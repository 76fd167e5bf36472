import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/harness/settings/index.ts';
import { addHook, JS_HOOK_TEMPLATE, PROMPT_HOOK_TEMPLATE, parseEnvVarList, parseHeaderLines, unlistedEnvVars } from '../../src/ui/settings/add-hook.ts';

describe('addHook', () => {
  it('adds a group for a new matcher and joins an existing one', () => {
    const one = addHook({}, { event: 'PreToolUse', matcher: 'bash', type: 'command', command: 'echo a' });
    const two = addHook(one, { event: 'PreToolUse', matcher: 'bash', type: 'js', name: 'b', code: 'return {}' });
    const three = addHook(two, { event: 'Stop', matcher: '', type: 'command', command: 'exit 0' });
    expect(three.hooks).toEqual({
      PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'echo a' }, { type: 'js', name: 'b', code: 'return {}' }] }],
      Stop: [{ hooks: [{ type: 'command', command: 'exit 0' }] }],
    });
    // the input is not mutated
    expect(one.hooks!.PreToolUse![0]!.hooks).toHaveLength(1);
  });

  it('produces settings that validate, with the JS template as the body', () => {
    const s = addHook({ permissions: { allow: ['Bash(rm *)'] } }, { event: 'PreToolUse', matcher: 'bash', type: 'js', name: 'no rm', code: JS_HOOK_TEMPLATE });
    const r = parseSettings(JSON.stringify(s), 'json');
    expect(r.ok).toBe(true);
  });

  it('keeps an "if" condition on the hook, and the result validates', () => {
    const out = addHook({}, { event: 'PreToolUse', matcher: 'Bash', if: ' Bash(git push *) ', type: 'command', command: 'exit 2' });
    expect(out.hooks?.PreToolUse?.[0]?.hooks[0]).toEqual({ type: 'command', if: 'Bash(git push *)', command: 'exit 2' });
    const none = addHook({}, { event: 'PreToolUse', matcher: 'Bash', if: '  ', type: 'command', command: 'x' });
    expect(none.hooks?.PreToolUse?.[0]?.hooks[0]).not.toHaveProperty('if');
  });

  it('writes an http hook in Claude Code\'s settings.json shape, which our settings loader reads back as is', () => {
    const headers = parseHeaderLines('Authorization: Bearer $MY_TOKEN\n\nX-Team: ${TEAM}');
    expect(headers).toEqual({ ok: true, headers: { Authorization: 'Bearer $MY_TOKEN', 'X-Team': '${TEAM}' } });
    const out = addHook(
      {},
      { event: 'PreToolUse', matcher: 'Bash', type: 'http', url: ' https://hooks.example.com/pre ', headers: headers.ok ? headers.headers : {}, allowedEnvVars: parseEnvVarList('MY_TOKEN, $TEAM'), timeout: 30 },
    );
    const json = JSON.stringify(out);
    // Byte for byte what the hooks reference shows: type, url, headers, allowedEnvVars, timeout.
    expect(json).toBe(
      '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"http","url":"https://hooks.example.com/pre","headers":{"Authorization":"Bearer $MY_TOKEN","X-Team":"${TEAM}"},"allowedEnvVars":["MY_TOKEN","TEAM"],"timeout":30}]}]}}',
    );
    const r = parseSettings(JSON.stringify(out, null, 2), 'json');
    expect(r.ok && r.warnings).toEqual([]);
    expect(r.ok && r.settings.hooks?.PreToolUse?.[0]?.hooks[0]).toEqual(out.hooks?.PreToolUse?.[0]?.hooks[0]);
    // Empty headers and env lists are left out, not written as {} and [].
    const bare = addHook({}, { event: 'Stop', matcher: '', type: 'http', url: 'http://localhost:8080/stop', headers: {}, allowedEnvVars: [] });
    expect(bare.hooks?.Stop?.[0]?.hooks[0]).toEqual({ type: 'http', url: 'http://localhost:8080/stop' });
  });

  it('writes a prompt hook (model optional) that our settings loader accepts', () => {
    const out = addHook({}, { event: 'Stop', matcher: '', type: 'prompt', prompt: PROMPT_HOOK_TEMPLATE, model: ' claude-haiku-4-5 ', timeout: 20 });
    expect(out.hooks?.Stop?.[0]).toEqual({ hooks: [{ type: 'prompt', prompt: PROMPT_HOOK_TEMPLATE, model: 'claude-haiku-4-5', timeout: 20 }] });
    const r = parseSettings(JSON.stringify(out), 'json');
    expect(r.ok && r.warnings).toEqual([]);
    expect(r.ok && r.settings.hooks?.Stop?.[0]?.hooks[0]).toEqual(out.hooks?.Stop?.[0]?.hooks[0]);
    const noModel = addHook({}, { event: 'Stop', matcher: '', type: 'prompt', prompt: 'ok? $ARGUMENTS', model: '  ' });
    expect(noModel.hooks?.Stop?.[0]?.hooks[0]).toEqual({ type: 'prompt', prompt: 'ok? $ARGUMENTS' });
  });

  it('says which header line is not a header, and which $VARs allowedEnvVars leaves empty', () => {
    expect(parseHeaderLines('Authorization Bearer x')).toEqual({ ok: false, error: 'header line 1 is not "Name: value": Authorization Bearer x' });
    expect(parseHeaderLines('  ')).toEqual({ ok: true, headers: {} });
    expect(unlistedEnvVars({ A: 'Bearer $TOKEN-${SECRET}', B: '$TOKEN' }, ['TOKEN'])).toEqual(['SECRET']);
  });
});

