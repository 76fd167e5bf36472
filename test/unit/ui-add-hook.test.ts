import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/harness/settings/index.ts';
import { addHook, JS_HOOK_TEMPLATE } from '../../src/ui/settings/add-hook.ts';

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
});
