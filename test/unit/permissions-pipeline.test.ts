import { describe, expect, it } from 'vitest';
import { toolsFixture } from './tools-fixture.ts';
import { builtinTools, validateToolCall } from '../../src/harness/tools/index.ts';
import { WORKDIR } from '../../src/harness/ports.ts';
import type { TraceEventBody } from '../../src/harness/trace.ts';
import {
  HEADLESS_DENY,
  SessionGrants,
  parseRule,
  permissionPipeline,
  type HookVerdict,
  type PermissionMode,
  type PipelineResult,
  type PromptAnswer,
  type PromptRequest,
  type RuleBehavior,
  type SourcedRule,
} from '../../src/harness/permissions/index.ts';

function rules(spec: Partial<Record<RuleBehavior, string[]>>): SourcedRule[] {
  return (['deny', 'ask', 'allow'] as const).flatMap((behavior) =>
    (spec[behavior] ?? []).map((text) => {
      const p = parseRule(text);
      if (!p.ok) throw new Error(p.error);
      return { behavior, source: 'project', rule: p.rule };
    }),
  );
}

type Opts = {
  mode?: PermissionMode;
  rules?: Partial<Record<RuleBehavior, string[]>>;
  hooks?: (input: unknown) => Promise<HookVerdict>;
  prompt?: (r: PromptRequest) => Promise<PromptAnswer>;
  session?: SessionGrants;
  files?: Record<string, string>;
};

async function run(name: string, input: unknown, opts: Opts = {}) {
  const fx = await toolsFixture(opts.files ?? {});
  const tools = builtinTools();
  const events: TraceEventBody[] = [];
  const prompts: PromptRequest[] = [];
  const gen = permissionPipeline(
    { toolUseId: 'toolu_1', name, input },
    {
      permissions: { mode: opts.mode ?? 'default', rules: rules(opts.rules ?? {}), workdir: WORKDIR },
      validate: (i) => validateToolCall(tools, { id: 'toolu_1', name, input: i }, fx.ctx),
      ...(opts.hooks ? { preToolUseHooks: opts.hooks } : {}),
      ...(opts.prompt
        ? {
            prompt: (r: PromptRequest) => {
              prompts.push(r);
              return opts.prompt!(r);
            },
          }
        : {}),
      ...(opts.session ? { session: opts.session } : {}),
    },
  );
  let result: PipelineResult;
  for (;;) {
    const n = await gen.next();
    if (n.done) {
      result = n.value;
      break;
    }
    events.push(n.value);
  }
  const stages = events.flatMap((e) => (e.type === 'permission.stage' ? [`${e.stage}:${e.decision}`] : []));
  return { result, events, stages, prompts };
}

const allowOnce = async (): Promise<PromptAnswer> => ({ decision: 'allow_once' });

describe('permission pipeline', () => {
  it('runs every stage in order up to the prompt and ends with a decision', async () => {
    const r = await run('bash', { command: 'npm test' }, { prompt: allowOnce });
    expect(r.stages).toEqual(['validate:passthrough', 'tool_check:passthrough', 'hooks:passthrough', 'rules:passthrough', 'mode:ask', 'prompt:allow']);
    const types = r.events.map((e) => e.type);
    expect(types.indexOf('permission.prompt')).toBeLessThan(types.lastIndexOf('permission.stage'));
    expect(types.at(-1)).toBe('permission.decision');
    expect(r.result.decision).toBe('allow');
    expect(r.prompts[0]!.suggestions).toEqual(['Bash(npm test *)']);
  });

  it('a deny rule ends the pipeline before the prompt', async () => {
    const r = await run('bash', { command: 'npm test && npm publish --tag x' }, { rules: { deny: ['Bash(npm publish *)'] }, prompt: allowOnce });
    expect(r.stages.at(-1)).toBe('rules:deny');
    expect(r.prompts).toHaveLength(0);
    expect(r.result.decision).toBe('deny');
    if (r.result.decision === 'deny') expect(r.result.message).toContain('Bash(npm publish *) (project)');
  });

  it('an allow rule ends the pipeline without a mode stage', async () => {
    const r = await run('bash', { command: 'npm test' }, { rules: { allow: ['Bash(npm test)'] } });
    expect(r.stages.at(-1)).toBe('rules:allow');
    expect(r.result.decision).toBe('allow');
  });

  it('a hook deny ends it at the hooks stage, before the rules', async () => {
    const r = await run('bash', { command: 'ls' }, { hooks: async () => ({ decision: 'deny', reason: 'no ls today', source: 'guard.sh' }) });
    expect(r.stages).toEqual(['validate:passthrough', 'tool_check:passthrough', 'hooks:deny']);
    if (r.result.decision === 'deny') expect(r.result.message).toContain('no ls today');
    expect(r.result.decision).toBe('deny');
  });

  it("a hook's allow does not override an ask rule", async () => {
    const r = await run('bash', { command: 'git push' }, { rules: { ask: ['Bash(git push *)'] }, hooks: async () => ({ decision: 'allow', reason: 'ok' }), prompt: allowOnce });
    expect(r.prompts).toHaveLength(1);
    expect(r.stages).toContain('rules:ask');
  });

  it("a hook's allow does not override a deny rule", async () => {
    const r = await run('bash', { command: 'git push' }, { rules: { deny: ['Bash(git push)'] }, hooks: async () => ({ decision: 'allow', reason: 'ok' }) });
    expect(r.result.decision).toBe('deny');
  });

  it("a hook's allow settles what no rule covers (no prompt)", async () => {
    const r = await run('bash', { command: 'npm test' }, { hooks: async () => ({ decision: 'allow', reason: 'CI command' }) });
    expect(r.result).toMatchObject({ decision: 'allow', stage: 'hooks' });
    expect(r.stages).not.toContain('mode:ask');
  });

  it('updatedInput is re-validated and checked against the rules again', async () => {
    const r = await run('bash', { command: 'npm test' }, {
      rules: { allow: ['Bash(npm test)'], deny: ['Bash(rm *)'] },
      hooks: async () => ({ updatedInput: { command: 'rm -rf build' }, reason: 'rewritten' }),
    });
    expect(r.stages.at(-1)).toBe('rules:deny');
    const rewritten = await run('bash', { command: 'npm tst' }, {
      rules: { allow: ['Bash(npm test)'] },
      hooks: async () => ({ updatedInput: { command: 'npm test' } }),
    });
    expect(rewritten.result.decision).toBe('allow');
    if (rewritten.result.decision === 'allow') expect(rewritten.result.call.input).toEqual({ command: 'npm test' });
    const invalid = await run('bash', { command: 'ls' }, { hooks: async () => ({ updatedInput: { cmd: 'ls' } }) });
    expect(invalid.stages.at(-1)).toBe('hooks:deny');
    if (invalid.result.decision === 'deny') expect(invalid.result.message).toContain('rewrote the input');
  });

  it('a failing hook is ignored (hooks are advisors)', async () => {
    const r = await run('bash', { command: 'ls' }, { hooks: async () => { throw new Error('boom'); } });
    expect(r.result.decision).toBe('allow');
  });

  it('headless: what needs approval is denied, naming the part', async () => {
    const r = await run('bash', { command: 'ls && npm publish' });
    expect(r.stages.at(-1)).toBe('prompt:deny');
    expect(r.result.decision).toBe('deny');
    if (r.result.decision === 'deny') {
      expect(r.result.message).toContain(HEADLESS_DENY);
      expect(r.result.message).toContain('"npm publish"');
    }
  });

  it('a declined prompt tells the model the user said no and why', async () => {
    const r = await run('bash', { command: 'npm publish' }, { prompt: async () => ({ decision: 'deny', message: 'not on Fridays' }) });
    expect(r.result.decision).toBe('deny');
    if (r.result.decision === 'deny') expect(r.result.message).toMatch(/user declined.*not on Fridays/);
  });

  it('"allow for this session" adds the suggested rule, which later calls use', async () => {
    const session = new SessionGrants();
    await run('bash', { command: 'npm test -- --watch=false' }, { session, prompt: async () => ({ decision: 'allow_session' }) });
    expect(session.rules.map((r) => r.rule.text)).toEqual(['Bash(npm test *)']);
    const later = await run('bash', { command: 'npm test' }, { session }); // headless: would deny without the grant
    expect(later.result).toMatchObject({ decision: 'allow', stage: 'rules' });
    const other = await run('bash', { command: 'npm publish' }, { session });
    expect(other.result.decision).toBe('deny');
  });

  it('validation failures deny at the validate stage', async () => {
    const r = await run('write', { file_path: 'a.txt', content: 'x' }, { files: { 'a.txt': 'old' } });
    expect(r.stages).toEqual(['validate:deny']);
    if (r.result.decision === 'deny') expect(r.result.message).toContain('have not read it');
  });

  it("the tool's own check asks for writes outside the workdir, even in bypassPermissions", async () => {
    const r = await run('write', { file_path: '/tmp/x.txt', content: 'x' }, { mode: 'bypassPermissions', prompt: allowOnce });
    expect(r.stages).toContain('tool_check:ask');
    expect(r.prompts).toHaveLength(1);
  });

  it('reading .env asks; an allow rule naming it settles that', async () => {
    const files = { '.env': 'K=1' };
    const asked = await run('read', { file_path: '.env' }, { files });
    expect(asked.stages).toContain('tool_check:ask');
    expect(asked.result.decision).toBe('deny'); // headless
    const allowed = await run('read', { file_path: '.env' }, { files, rules: { allow: ['Read(./.env)'] } });
    expect(allowed.result.decision).toBe('allow');
    const plain = await run('read', { file_path: 'a.md' }, { files: { 'a.md': 'x' } });
    expect(plain.result).toMatchObject({ decision: 'allow', decidedBy: { kind: 'readonly' } });
  });

  it('a hook ask forces the prompt even when a rule allows', async () => {
    const r = await run('bash', { command: 'npm test' }, { rules: { allow: ['Bash(npm test)'] }, hooks: async () => ({ decision: 'ask', reason: 'double-check' }), prompt: allowOnce });
    expect(r.prompts).toHaveLength(1);
  });
});
