/**
 * Claude Code's hook events beyond the core set, each fired where Claude Code fires it, with its
 * documented input fields: StopFailure, SessionEnd, PermissionDenied (+ retry), TaskCreated /
 * TaskCompleted (a block rolls back / keeps open), InstructionsLoaded, ConfigChange, WorktreeCreate /
 * WorktreeRemove. Real loop, real just-bash, real scripted model.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool, builtinTools, WORKDIR } from '../../src/harness/index.ts';
import type { HooksConfig } from '../../src/harness/hooks/index.ts';
import { taskTools } from '../../src/harness/agents/index.ts';
import { drain, ofType, setup } from './loop-helpers.ts';
import type { LoopHooks } from '../../src/harness/loop/hook-site.ts';

const session = { sessionId: 's', cwd: WORKDIR, permissionMode: 'default' };
const hooksOf = (config: HooksConfig): LoopHooks => ({ config, session });
const logTo = (file: string) => ({ type: 'command' as const, command: `cat >> /tmp/${file}.jsonl; echo >> /tmp/${file}.jsonl` });
const said = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const call = (name: string, input: Record<string, unknown>, id = 't1') => ({ content: [{ type: 'tool_use' as const, id, name, input }] });

describe('StopFailure and SessionEnd', () => {
  it('a turn that ends on an API error fires StopFailure (not Stop) with the error type, then SessionEnd', async () => {
    const s = await setup([{ fault: { kind: 'http', status: 401, errorType: 'authentication_error', message: 'bad key' } }], { input: { sessionEnd: 'other' } });
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: hooksOf({ Stop: [{ hooks: [logTo('stop')] }], StopFailure: [{ matcher: 'authentication_failed', hooks: [logTo('fail')] }], SessionEnd: [{ hooks: [logTo('end')] }] }),
    });
    expect(result.reason).toBe('model_error');
    const runs = ofType(events, 'hook.run');
    expect(runs.map((r) => r.event)).toEqual(['StopFailure', 'SessionEnd']);
    expect(runs[0]!.input).toMatchObject({ hook_event_name: 'StopFailure', error: 'authentication_failed' });
    expect((runs[0]!.input as { error_details: string }).error_details).toMatch(/bad key|401|API key/i);
    expect(runs[1]!.input).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other' });
    // Both come before the run's end.
    const order = events.map((e) => e.type);
    expect(order.lastIndexOf('hook.run')).toBeLessThan(order.indexOf('run.end'));
  });

  it('SessionEnd fires only for a run that ends the session', async () => {
    const s = await setup([said('done')]);
    const { events } = await drain(s.input, { ...s.deps, hooks: hooksOf({ SessionEnd: [{ hooks: [logTo('end')] }] }) });
    expect(ofType(events, 'hook.run')).toHaveLength(0);
  });
});

describe('PermissionDenied', () => {
  it('fires when the mode denies a call with nobody asked; retry: true tells the model it may try again', async () => {
    const s = await setup([call('bash', { command: 'touch x' }), said('ok')], {
      input: { permissions: { mode: 'plan', rules: [], workdir: WORKDIR } },
    });
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: hooksOf({ PermissionDenied: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo \'{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}\'' }] }] }),
    });
    const run = ofType(events, 'hook.run').find((r) => r.event === 'PermissionDenied')!;
    expect(run.input).toMatchObject({ tool_name: 'bash', tool_input: { command: 'touch x' }, tool_use_id: 't1' });
    expect((run.input as { reason: string }).reason).toMatch(/plan/i);
    expect(JSON.stringify(result.messages)).toContain('may retry this call');
  });

  it('does not fire for a deny rule', async () => {
    const s = await setup([call('bash', { command: 'touch x' }), said('ok')], {
      input: { permissions: { mode: 'default', rules: [{ behavior: 'deny', source: 'project', rule: { kind: 'tool', tool: 'Bash', text: 'Bash' } }], workdir: WORKDIR } },
    });
    const { events } = await drain(s.input, { ...s.deps, hooks: hooksOf({ PermissionDenied: [{ hooks: [logTo('pd')] }] }) });
    expect(ofType(events, 'hook.run').filter((r) => r.event === 'PermissionDenied')).toHaveLength(0);
  });
});

describe('TaskCreated and TaskCompleted', () => {
  it('a TaskCreated hook that exits 2 rolls the creation back; its reason reaches the model', async () => {
    const s = await setup([call('task_create', { subject: 'Ship it without tests' }), said('ok')], { tools: [...builtinTools(), ...taskTools()] });
    const { events, result } = await drain(s.input, {
      ...s.deps,
      hooks: hooksOf({ TaskCreated: [{ hooks: [{ type: 'command', command: 'jq -r .task_subject | grep -q "without tests" && { echo "every task needs tests" >&2; exit 2; }; exit 0' }] }] }),
    });
    const run = ofType(events, 'hook.run').find((r) => r.event === 'TaskCreated')!;
    expect(run.input).toMatchObject({ task_id: '1', task_subject: 'Ship it without tests' });
    const res = ofType(events, 'tool.result')[0]!;
    expect(res.isError).toBe(true);
    expect(res.content).toMatch(/Task not created: a TaskCreated hook refused it: every task needs tests/);
    expect(await s.deps.sandbox.fs.stat(`${WORKDIR}/.tasks/1.json`)).toBeNull();
    expect(result.reason).toBe('completed');
  });

  it('a TaskCompleted hook that exits 2 keeps the task open', async () => {
    const s = await setup(
      [call('task_create', { subject: 'Write tests' }, 'a'), call('task_update', { taskId: '1', status: 'completed' }, 'b'), said('ok')],
      { tools: [...builtinTools(), ...taskTools()] },
    );
    const { events } = await drain(s.input, { ...s.deps, hooks: hooksOf({ TaskCompleted: [{ hooks: [{ type: 'command', command: 'echo "tests are not green" >&2; exit 2' }] }] }) });
    expect(ofType(events, 'hook.run').map((r) => r.event)).toEqual(['TaskCompleted']);
    expect(ofType(events, 'tool.result')[1]!.content).toMatch(/Task #1 not completed: a TaskCompleted hook refused it: tests are not green/);
    expect(JSON.parse(await s.deps.sandbox.fs.readFile(`${WORKDIR}/.tasks/1.json`)).status).toBe('pending');
  });
});

describe('InstructionsLoaded and ConfigChange', () => {
  it('InstructionsLoaded fires per memory file at session start, an import with its parent', async () => {
    const s = await setup([said('ok')], {
      input: {
        sessionStart: 'startup',
        memoryInjected: { type: 'memory.injected', files: [{ path: `${WORKDIR}/CLAUDE.md`, tokens: 3 }, { path: `${WORKDIR}/docs/style.md`, importedFrom: `${WORKDIR}/CLAUDE.md`, tokens: 2 }], chosen: [], left: [], problems: [], tokens: 5, cap: 100, terms: [] },
      },
    });
    const { events } = await drain(s.input, { ...s.deps, hooks: hooksOf({ InstructionsLoaded: [{ hooks: [logTo('il')] }] }) });
    const runs = ofType(events, 'hook.run');
    expect(runs.map((r) => r.input)).toMatchObject([
      { file_path: `${WORKDIR}/CLAUDE.md`, memory_type: 'Project', load_reason: 'session_start' },
      { file_path: `${WORKDIR}/docs/style.md`, load_reason: 'include', parent_file_path: `${WORKDIR}/CLAUDE.md` },
    ]);
  });

  it('ConfigChange fires when a settings file changes while the run works', async () => {
    // A tool of the project's own writes the settings file (the built-in write tool may not: settings are protected).
    const configure = buildTool<{ mode: string }>({
      name: 'configure',
      description: 'Sets the default mode in .claude/settings.json.',
      inputSchema: z.object({ mode: z.string() }),
      async call(input, ctx) {
        await ctx.sandbox.fs.writeFile(`${WORKDIR}/.claude/settings.json`, JSON.stringify({ permissions: { defaultMode: input.mode } }));
        return { content: 'saved' };
      },
    });
    const s = await setup([call('configure', { mode: 'plan' }), said('ok')], { tools: [...builtinTools(), configure] });
    const { events } = await drain(s.input, { ...s.deps, hooks: hooksOf({ ConfigChange: [{ matcher: 'project_settings', hooks: [logTo('cc')] }] }) });
    const run = ofType(events, 'hook.run').find((r) => r.event === 'ConfigChange')!;
    expect(run.input).toMatchObject({ source: 'project_settings', file_path: `${WORKDIR}/.claude/settings.json` });
  });
});
