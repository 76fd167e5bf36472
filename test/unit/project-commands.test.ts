/**
 * Custom slash commands from `.claude/commands/*.md` (and `~/.claude/commands/`): frontmatter,
 * `$ARGUMENTS` / `$1`, the expanded prompt is what the model sees, `allowed-tools` allow only for
 * that prompt, UserPromptExpansion fires, and an untrusted document's command does not run.
 */
import { describe, expect, it } from 'vitest';
import { HOME_DIR, WORKDIR } from '../../src/harness/index.ts';
import { SessionGrants } from '../../src/harness/permissions/index.ts';
import { expandCommand, loadCommands, parseCommandFile } from '../../src/harness/commands/index.ts';
import { commandAllowRules } from '../../src/harness/loop/slash-site.ts';
import { drain, lastUserText, ofType, setup } from './loop-helpers.ts';

const REVIEW = `---
description: Review a pull request
argument-hint: [pr-number] [priority]
allowed-tools: Bash(git add:*), Read
model: haiku
---
Review PR #$1 with priority $2.
Everything typed: $ARGUMENTS
`;

describe('command files', () => {
  it('reads the frontmatter and keeps the body', () => {
    const r = parseCommandFile(REVIEW, '.claude/commands/review.md', 'project');
    expect(r).toMatchObject({
      ok: true,
      command: { name: 'review', description: 'Review a pull request (project)', argumentHint: '[pr-number] [priority]', allowedTools: ['Bash(git add:*)', 'Read'], model: 'haiku', scope: 'project' },
    });
  });

  it('a file without frontmatter is a command whose description is its first line; a subfolder is a namespace', () => {
    const r = parseCommandFile('Explain this code simply.\nMore.', '.claude/commands/frontend/explain.md', 'project');
    expect(r).toMatchObject({ ok: true, command: { name: 'explain', description: 'Explain this code simply. (project:frontend)', allowedTools: [] } });
  });

  it('a bad allowed-tools value is a one-line problem with its line', () => {
    const r = parseCommandFile('---\ndescription: x\nallowed-tools: {a: 1}\n---\nbody', '.claude/commands/x.md', 'project');
    expect(r).toEqual({ ok: false, problem: { path: '.claude/commands/x.md', line: 3, message: expect.stringMatching(/^allowed-tools must be text or a list/) } });
  });

  it('expands $ARGUMENTS and $1, $2 (a quoted phrase is one word); unused arguments are appended', () => {
    expect(expandCommand('Fix #$1 ($2): $ARGUMENTS', '123 "high priority"')).toBe('Fix #123 (high priority): 123 "high priority"');
    expect(expandCommand('Fix $3.', 'a b')).toBe('Fix .');
    expect(expandCommand('Run the tests.', 'only unit')).toBe('Run the tests.\n\nARGUMENTS: only unit');
    expect(expandCommand('Run the tests.', '')).toBe('Run the tests.');
  });

  it('loads the project and the user folder; the project wins a shared name', async () => {
    const s = await setup([], {
      files: {
        [`${WORKDIR}/.claude/commands/review.md`]: REVIEW,
        [`${HOME_DIR}/.claude/commands/review.md`]: 'user review',
        [`${HOME_DIR}/.claude/commands/standup.md`]: 'Write my standup.',
        [`${WORKDIR}/.claude/commands/broken.md`]: '---\ndescription: never closed\n',
      },
    });
    const cat = await loadCommands(s.deps.sandbox.fs, WORKDIR, { trusted: true });
    expect(cat.commands.map((c) => [c.name, c.scope])).toEqual([['review', 'project'], ['standup', 'user']]);
    expect(cat.problems).toMatchObject([{ path: '.claude/commands/broken.md', message: expect.stringMatching(/frontmatter is not closed/) }]);
  });

  it('allowed-tools naming an unknown tool or one not available here is a warning', () => {
    const { rules, warnings } = commandAllowRules({ path: '.claude/commands/x.md', allowedTools: ['Task', 'WebSearch', 'Reed', 'Bash(npm test:*)'] });
    expect(rules.map((r) => r.rule.text)).toEqual(['Task', 'WebSearch', 'Reed', 'Bash(npm test:*)']);
    expect(warnings).toEqual([expect.stringMatching(/WebSearch, a Claude Code tool not available here/), expect.stringMatching(/"Reed", which is neither a Claude Code tool nor one of ours/)]);
  });
});

describe('running a custom command', () => {
  const addCall = { type: 'tool_use' as const, name: 'bash', input: { command: 'git add -A' } };

  async function runWith(prompt: string, opts: { trusted: boolean; turns?: Parameters<typeof setup>[0]; hooks?: boolean }) {
    const s = await setup(opts.turns ?? [{ content: [{ type: 'text', text: 'reviewed' }] }], {
      files: { [`${WORKDIR}/.claude/commands/review.md`]: REVIEW },
      prompt,
      input: { permissions: { mode: 'default', rules: [], workdir: WORKDIR } },
    });
    const commands = await loadCommands(s.deps.sandbox.fs, WORKDIR, { trusted: opts.trusted });
    const grants = new SessionGrants();
    const log = "jq -c '{e: .hook_event_name, n: .command_name, a: .command_args, p: .prompt}'";
    const hooks = opts.hooks
      ? { hooks: { config: { UserPromptExpansion: [{ matcher: 'review', hooks: [{ type: 'command' as const, command: log }] }] }, session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' as const } } }
      : {};
    const out = await drain({ ...s.input, commands }, { ...s.deps, sessionGrants: grants, ...hooks });
    return { ...out, client: s.client, grants };
  }

  it('the model sees the expanded prompt, on the command model, after UserPromptExpansion', async () => {
    const { events, client } = await runWith('/review 42 high', { trusted: true, hooks: true });
    expect(ofType(events, 'slash.command')).toMatchObject([{ name: 'review', args: '42 high', kind: 'custom', path: '.claude/commands/review.md', allowedTools: ['Bash(git add:*)', 'Read'], model: 'haiku' }]);
    expect(client.requests).toHaveLength(1);
    expect(lastUserText(client.requests[0]!.messages)).toContain('Review PR #42 with priority high.\nEverything typed: 42 high');
    expect(JSON.stringify(client.requests[0]!.messages)).not.toContain('/review');
    expect(client.requests[0]!.model).toBe('claude-haiku-5-5');
    expect(ofType(events, 'hook.run').map((r) => r.input)).toMatchObject([{ hook_event_name: 'UserPromptExpansion', command_name: 'review', command_args: '42 high', prompt: expect.stringContaining('Review PR #42') }]);
  });

  it('allowed-tools allow the call without asking in that run, and grant nothing after it', async () => {
    const turns = [{ content: [addCall] }, { content: [{ type: 'text' as const, text: 'done' }] }];
    const first = await runWith('/review 1', { trusted: true, turns });
    expect(ofType(first.events, 'permission.decision')).toMatchObject([{ decision: 'allow', stage: 'rules' }]);
    expect(first.grants.rules).toEqual([]);
    // The same call from a plain prompt: no command, no grant — headless, it is denied.
    const plain = await runWith('show the diff', { trusted: true, turns });
    expect(ofType(plain.events, 'permission.decision')).toMatchObject([{ decision: 'deny' }]);
  });

  it('an untrusted document\'s command does not run: no expansion, no model call, a clear reason', async () => {
    const { events, client, result } = await runWith('/review 42', { trusted: false });
    expect(client.requests).toHaveLength(0);
    expect(ofType(events, 'slash.command')).toMatchObject([{ name: 'review', kind: 'untrusted' }]);
    expect(ofType(events, 'transition').at(-1)!.detail).toMatch(/document you have not trusted, so it did not run/);
    expect(result.messages).toEqual([]);
  });

  it('a custom command named like a built-in does not replace it', async () => {
    const s = await setup([], { files: { [`${WORKDIR}/.claude/commands/cost.md`]: 'Spend money.' }, prompt: '/cost' });
    const commands = await loadCommands(s.deps.sandbox.fs, WORKDIR, { trusted: true });
    const { events } = await drain({ ...s.input, commands }, s.deps);
    expect(ofType(events, 'slash.command')).toMatchObject([{ name: 'cost', kind: 'builtin' }]);
    expect(s.client.requests).toHaveLength(0);
  });
});
