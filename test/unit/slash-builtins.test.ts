/**
 * Claude Code's built-in slash commands as the prompt: each is a `slash.command` event, none calls
 * the model, the command never stays in the history; `/clear` ends the session and starts a new
 * one; an unknown `/foo` lists what exists.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, WORKDIR } from '../../src/harness/index.ts';
import { BUILTIN_COMMANDS, lastRunCleared } from '../../src/harness/commands/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { summarize } from '../../src/ui/events/summary.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const history = [
  { role: 'user' as const, content: 'earlier question' },
  { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'earlier answer' }] },
];

async function runCommand(text: string, extra: Parameters<typeof setup>[1] = {}) {
  const s = await setup([{ content: [{ type: 'text', text: 'the model was called' }] }], { ...extra, input: { messages: [...history, { role: 'user', content: text }], ...extra.input } });
  const out = await drain(s.input, s.deps);
  return { ...out, client: s.client };
}

describe('built-in slash commands', () => {
  it.each(BUILTIN_COMMANDS.filter((c) => c.panel).map((c) => [c.name, c.panel!]))('/%s is a slash.command naming the %s panel, with no model call', async (name, panel) => {
    const { events, result, client } = await runCommand(`/${name}`);
    expect(client.requests).toHaveLength(0);
    expect(ofType(events, 'slash.command')).toMatchObject([{ name, kind: 'builtin', panel }]);
    expect(result.reason).toBe('completed');
    expect(result.messages).toEqual(history);
    expect(ofType(events, 'transition').at(-1)!.detail).toContain(`the ${panel} panel`);
  });

  it('/context prints the breakdown of the context window', async () => {
    const { events } = await runCommand('/context', { input: { memory: 'Always run the tests.', context: { windowTokens: 10_000 } } });
    const out = ofType(events, 'slash.command')[0]!.output!;
    expect(out).toMatch(/^Context: ~\d+ of 10000 tokens/);
    expect(out).toMatch(/system prompt: ~\d+ tokens/);
    expect(out).toMatch(/tools: ~\d+ tokens/);
    expect(out).toMatch(/memory files: ~[1-9]\d* tokens/);
    expect(out).toMatch(/messages: ~[1-9]\d* tokens/);
  });

  it('/permissions prints the mode and the rules; /hooks the configured hooks', async () => {
    const rules = [{ behavior: 'deny' as const, source: 'project', rule: { tool: 'Bash', specifier: 'rm *', text: 'Bash(rm *)' } }];
    const p = await runCommand('/permissions', { input: { permissions: { mode: 'acceptEdits', rules, workdir: WORKDIR } as never } });
    expect(ofType(p.events, 'slash.command')[0]!.output).toBe('Permissions: mode acceptEdits\n  deny Bash(rm *) (project)');
    const s = await setup([], { input: { messages: [{ role: 'user', content: '/hooks' }] } });
    const h = await drain(s.input, { ...s.deps, hooks: { config: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }] }] }, session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' } } });
    expect(ofType(h.events, 'slash.command')[0]!.output).toBe('Hooks:\n  PreToolUse [Bash]: command ./check.sh');
  });

  it('/clear fires SessionEnd "clear" then SessionStart "clear" and leaves an empty conversation', async () => {
    const s = await setup([], { input: { messages: [...history, { role: 'user', content: '/clear' }] } });
    const log = "jq -c '{e: .hook_event_name, r: .reason, s: .source}'";
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: {
        config: { SessionEnd: [{ hooks: [{ type: 'command', command: log }] }], SessionStart: [{ hooks: [{ type: 'command', command: log }] }] },
        session: { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' },
      },
    });
    expect(s.client.requests).toHaveLength(0);
    expect(ofType(events, 'slash.command')).toMatchObject([{ name: 'clear', kind: 'builtin' }]);
    expect(ofType(events, 'hook.run').map((r) => r.input)).toMatchObject([
      { hook_event_name: 'SessionEnd', reason: 'clear' },
      { hook_event_name: 'SessionStart', source: 'clear' },
    ]);
    expect(result.messages).toEqual([]);
  });

  it('an unknown /foo ends with a message listing the commands, and no model call', async () => {
    const { events, result, client } = await runCommand('/frobnicate now');
    expect(client.requests).toHaveLength(0);
    expect(ofType(events, 'slash.command')).toMatchObject([{ name: 'frobnicate', args: 'now', kind: 'unknown' }]);
    const detail = ofType(events, 'transition').at(-1)!.detail!;
    expect(detail).toMatch(/^Unknown slash command: \/frobnicate\. Commands here: \/compact, \/clear, \/context, \/cost/);
    expect(result.messages).toEqual(history);
  });

  it('a prompt that only mentions a path is not a command', async () => {
    const { events, client } = await runCommand('/home/project/app.ts fails to build');
    expect(ofType(events, 'slash.command')).toHaveLength(0);
    expect(client.requests).toHaveLength(1);
  });
});

describe('/clear in a conversation (the page and the runner prepare the next prompt)', () => {
  it('the next prompt starts a new conversation in the same sandbox: files are not seeded again, SessionStart already fired', async () => {
    const scenario = findBuiltinScenario('fix-a-bug')!;
    const sandbox = await createJustBashSandbox();
    const first = await prepareRun({ scenario, sandbox, prompt: '/clear', clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    const cleared = await drain(first.input, first.deps);
    expect(cleared.result.messages).toEqual([]);
    expect(lastRunCleared(cleared.events)).toBe(true);
    await sandbox.fs.writeFile(`${WORKDIR}/calc.sh`, 'edited by the agent\n');
    const next = await prepareRun({ scenario, sandbox, prompt: 'go on', history: [], afterClear: true, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    expect(await sandbox.fs.readFile(`${WORKDIR}/calc.sh`)).toBe('edited by the agent\n');
    expect(next.input.sessionStart).toBeUndefined();
    expect(next.input.messages).toEqual([{ role: 'user', content: 'go on' }]);
    await sandbox.dispose();
  });
});

describe('the event list row of a slash command', () => {
  it('names the command, its kind and the panel it opens', async () => {
    const { events } = await runCommand('/cost');
    expect(summarize(ofType(events, 'slash.command')[0]!)).toBe('/cost · builtin → cost panel');
  });
});
