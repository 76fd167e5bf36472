import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/harness/tools/index.ts';
import { WORKDIR } from '../../src/harness/ports.ts';
import {
  PLAN_MODE_MESSAGE,
  judge,
  parseRule,
  prefilterTools,
  suggestRules,
  whatIf,
  type PermissionMode,
  type RuleBehavior,
  type SourcedRule,
} from '../../src/harness/permissions/index.ts';
import { justBashShellParser } from '../../src/sandbox/justbash/shell-parser.ts';

const tools = builtinTools();

function rules(spec: Partial<Record<RuleBehavior, string[]>>, source = 'project'): SourcedRule[] {
  return (['deny', 'ask', 'allow'] as const).flatMap((behavior) =>
    (spec[behavior] ?? []).map((text) => {
      const p = parseRule(text);
      if (!p.ok) throw new Error(p.error);
      return { behavior, source, rule: p.rule };
    }),
  );
}

function decide(mode: PermissionMode, name: string, input: unknown, spec: Partial<Record<RuleBehavior, string[]>> = {}) {
  const tool = tools.find((t) => t.name === name);
  const toolReadOnly = tool ? tool.isReadOnly(input) : false;
  const j = judge({ name, input, ctx: { mode, rules: rules(spec), workdir: WORKDIR }, toolReadOnly });
  // Decided again on just-bash's AST (the executor's parser): both must agree.
  const byAst = judge({ name, input, ctx: { mode, rules: rules(spec), workdir: WORKDIR, shell: justBashShellParser }, toolReadOnly });
  expect(byAst.final.decision, 'just-bash AST vs lexer').toBe(j.final.decision);
  return j.final;
}
const bash = (mode: PermissionMode, command: string, spec: Partial<Record<RuleBehavior, string[]>> = {}) => decide(mode, 'bash', { command }, spec).decision;

describe('modes', () => {
  it('default asks for anything not allowed; read-only passes', () => {
    expect(bash('default', 'npm test')).toBe('ask');
    expect(decide('default', 'edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' }).decision).toBe('ask');
    expect(decide('default', 'glob', { pattern: '**/*.ts' }).decision).toBe('allow');
    expect(bash('default', 'ls && grep -r foo .')).toBe('allow');
  });

  it('read-only tools pass in every mode unless a rule says otherwise', () => {
    for (const mode of ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'] as const) {
      expect(decide(mode, 'grep', { pattern: 'x' }).decision).toBe('allow');
    }
    expect(decide('bypassPermissions', 'grep', { pattern: 'x' }, { deny: ['Grep'] }).decision).toBe('deny');
    expect(decide('default', 'grep', { pattern: 'x' }, { ask: ['Grep'] }).decision).toBe('ask');
  });

  it('acceptEdits allows file edits and file commands inside the workdir', () => {
    expect(decide('acceptEdits', 'write', { file_path: 'src/a.ts', content: '' }).decision).toBe('allow');
    expect(decide('acceptEdits', 'revert', {}).decision).toBe('allow');
    expect(bash('acceptEdits', 'mkdir -p out && touch out/a && cp a.txt out/ && mv out/a out/b && rm out/b')).toBe('allow');
    expect(bash('acceptEdits', 'echo hi > notes.txt')).toBe('allow');
    expect(bash('acceptEdits', 'npm test')).toBe('ask');
    expect(bash('acceptEdits', 'cp a.txt /tmp/a.txt')).toBe('ask');
    expect(bash('acceptEdits', 'rm $TARGET')).toBe('ask');
    expect(decide('acceptEdits', 'write', { file_path: '.git/config', content: '' }).decision).toBe('ask');
  });

  it('plan denies anything not read-only, with a message for the model — even with an allow rule', () => {
    const edit = decide('plan', 'edit', { file_path: 'a.ts', old_string: 'a', new_string: 'b' });
    expect(edit).toMatchObject({ stage: 'mode', decision: 'deny', reason: PLAN_MODE_MESSAGE });
    expect(bash('plan', 'npm test', { allow: ['Bash(npm test)'] })).toBe('deny');
    expect(bash('plan', 'ls -la | wc -l')).toBe('allow');
    expect(bash('plan', 'ls > listing.txt')).toBe('deny');
    expect(decide('plan', 'read', { file_path: 'a.md' }).decision).toBe('allow');
  });

  it('dontAsk denies what is not pre-allowed, and turns asks into denies', () => {
    expect(bash('dontAsk', 'npm test')).toBe('deny');
    expect(bash('dontAsk', 'npm test', { allow: ['Bash(npm test)'] })).toBe('allow');
    expect(bash('dontAsk', 'git push', { ask: ['Bash(git push)'] })).toBe('deny');
    expect(bash('dontAsk', 'cat README.md')).toBe('allow');
  });

  it('bypassPermissions allows, except the protected set', () => {
    expect(bash('bypassPermissions', 'npm publish')).toBe('allow');
    expect(bash('bypassPermissions', 'echo x > out.txt')).toBe('allow');
    for (const cmd of ['rm -rf /', 'rm -rf ~', `rm -rf ${WORKDIR}`, 'rm -rf .', 'rm -rf *', 'rm -rf $HOME', 'echo x > /etc/passwd', 'rm -rf .git', 'echo {} > .claude/settings.json', "bash -c 'rm -rf /'"]) {
      expect([cmd, bash('bypassPermissions', cmd)]).toEqual([cmd, 'ask']);
    }
    expect(decide('bypassPermissions', 'write', { file_path: '.git/hooks/pre-commit', content: '' }).decision).toBe('ask');
    expect(bash('bypassPermissions', 'rm -rf build')).toBe('allow');
    // explicit deny and ask rules still hold
    expect(bash('bypassPermissions', 'npm publish', { deny: ['Bash(npm publish)'] })).toBe('deny');
    expect(bash('bypassPermissions', 'npm publish', { ask: ['Bash(npm publish)'] })).toBe('ask');
  });

  it('a deny in one scope beats an allow in another', () => {
    const rs = [...rules({ allow: ['Bash(curl *)'] }, 'managed'), ...rules({ deny: ['Bash(curl *)'] }, 'user')];
    const j = judge({ name: 'bash', input: { command: 'curl x' }, ctx: { mode: 'bypassPermissions', rules: rs, workdir: WORKDIR }, toolReadOnly: false });
    expect(j.final).toMatchObject({ decision: 'deny', decidedBy: { kind: 'rule', text: 'Bash(curl *) (user)' } });
  });
});

describe('prefilter', () => {
  it('hides tools denied by a bare rule, and only those', () => {
    const extra = [...tools, { name: 'mcp__gh__issue' }, { name: 'mcp__gh__pr' }, { name: 'mcp__db__query' }];
    const r = prefilterTools(extra, rules({ deny: ['Bash(*)', 'Edit', 'mcp__gh', 'Read(./.env)'], allow: ['Glob'] }));
    expect(r.hidden.map((h) => h.name)).toEqual(['bash', 'write', 'edit', 'revert', 'mcp__gh__issue', 'mcp__gh__pr']);
    expect(r.visible.map((t) => t.name)).toEqual(['read', 'glob', 'grep', 'mcp__db__query']);
    expect(r.hidden[0]!.rule).toBe('Bash(*) (project)');
  });
});

describe('suggestRules', () => {
  it('proposes the first words of each command and the files written', () => {
    const s = suggestRules({ name: 'bash', input: { command: 'cd sub && NODE_ENV=x npm run build > log.txt && ls' } }, { workdir: WORKDIR });
    // cd is read-only (as in Claude Code): nothing to grant for it
    expect(s).toEqual(['Bash(npm run build *)', 'Edit(./sub/log.txt)']);
    // the script is what was approved, never the interpreter as a whole
    expect(suggestRules({ name: 'bash', input: { command: 'python script.py' } }, { workdir: WORKDIR })).toEqual(['Bash(python script.py *)']);
    expect(suggestRules({ name: 'bash', input: { command: 'bash deploy.sh staging' } }, { workdir: WORKDIR })).toEqual(['Bash(bash deploy.sh *)']);
    expect(suggestRules({ name: 'edit', input: { file_path: 'src/a.ts' } }, { workdir: WORKDIR })).toEqual(['Edit(./src/a.ts)']);
    expect(suggestRules({ name: 'write', input: { file_path: '/tmp/a' } }, { workdir: WORKDIR })).toEqual(['Edit(//tmp/a)']);
    expect(suggestRules({ name: 'mcp__gh__pr', input: {} }, { workdir: WORKDIR })).toEqual(['mcp__gh__pr']);
  });
});

describe('what-if', () => {
  const call = { name: 'edit', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } };
  it('re-judges a recorded call under another mode or rules, without hooks or prompt', async () => {
    const base = { rules: [] as SourcedRule[], workdir: WORKDIR };
    const def = await whatIf(call, { ...base, mode: 'default' }, tools);
    expect(def).toMatchObject({ decidingStage: 'prompt', outcome: 'ask' });
    expect(def.stages.map((s) => s.stage)).toEqual(['validate', 'tool_check', 'hooks', 'rules', 'mode', 'prompt']);
    expect(def.stages[2]!.reason).toContain('not run');
    expect(await whatIf(call, { ...base, mode: 'plan' }, tools)).toMatchObject({ decidingStage: 'mode', outcome: 'deny' });
    expect(await whatIf(call, { ...base, mode: 'acceptEdits' }, tools)).toMatchObject({ decidingStage: 'mode', outcome: 'allow' });
    expect(await whatIf(call, { ...base, mode: 'default', rules: rules({ allow: ['Edit(src/**)'] }) }, tools)).toMatchObject({ decidingStage: 'rules', outcome: 'allow' });
    expect(await whatIf({ name: 'edit', input: { file_path: 1 } }, { ...base, mode: 'default' }, tools)).toMatchObject({ decidingStage: 'validate', outcome: 'deny' });
    expect(await whatIf({ name: 'write', input: { file_path: '/etc/x', content: '' } }, { ...base, mode: 'acceptEdits' }, tools)).toMatchObject({ outcome: 'ask' });
  });
});
