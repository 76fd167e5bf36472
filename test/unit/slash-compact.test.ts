/**
 * `/compact [instructions]` as the prompt: no model call, the history is summarised now, and the
 * PreCompact / PostCompact hooks see trigger `manual` (the instructions in `custom_instructions`).
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR } from '../../src/harness/index.ts';
import { parseSlashCommand } from '../../src/harness/loop/slash-site.ts';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

describe('slash commands', () => {
  it('parses /name args, and leaves other prompts alone', () => {
    expect(parseSlashCommand('/compact keep the tests')).toEqual({ name: 'compact', args: 'keep the tests' });
    expect(parseSlashCommand('  /clear ')).toEqual({ name: 'clear', args: '' });
    expect(parseSlashCommand('fix /etc/hosts')).toBeNull();
    expect(parseSlashCommand('/ not a command')).toBeNull();
  });

  it('/compact summarises the history without a model call and fires PreCompact manual', async () => {
    const history = Array.from({ length: 6 }, (_, i) => [
      { role: 'user' as const, content: `question ${i}` },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i}` }] },
    ]).flat();
    const s = await setup([], { input: { messages: [...history, { role: 'user', content: '/compact keep the answers' }] } });
    const log = "jq -c '{e: .hook_event_name, t: .trigger, c: .custom_instructions}'";
    const { events, result } = await drain(s.input, {
      ...s.deps,
      summarize: deterministicSummarizer,
      hooks: {
        config: { PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: log }] }], PostCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: log }] }] },
        session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' },
      },
    });
    expect(ofType(events, 'transition').map((t) => t.detail)).toEqual([expect.stringMatching(/^\/compact: summarised 13 messages into /)]);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(s.client.requests).toHaveLength(0);
    expect(ofType(events, 'slash.command')).toMatchObject([{ name: 'compact', args: 'keep the answers' }]);
    expect(ofType(events, 'hook.run').map((r) => r.input)).toMatchObject([
      { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the answers' },
      { hook_event_name: 'PostCompact', trigger: 'manual' },
    ]);
    expect(result.reason).toBe('completed');
    expect(result.messages.length).toBeLessThan(history.length);
    expect(JSON.stringify(result.messages)).not.toContain('/compact');
  });
});
