import { describe, expect, it } from 'vitest';
import { parseRule, suggestRules, whatIf, type PermissionMode, type RuleBehavior, type SourcedRule } from '../../src/harness/permissions/index.ts';
import { HOME_DIR, WORKDIR } from '../../src/harness/ports.ts';
import { builtinTools } from '../../src/harness/tools/index.ts';
import { justBashShellParser } from '../../src/sandbox/justbash/shell-parser.ts';

const tools = builtinTools();

type Spec = Partial<Record<RuleBehavior, string[]>> & { dirs?: string[]; mode?: PermissionMode };

function ctxOf(spec: Spec) {
  const rules: SourcedRule[] = (['deny', 'ask', 'allow'] as const).flatMap((behavior) =>
    (spec[behavior] ?? []).map((text) => {
      const p = parseRule(text);
      if (!p.ok) throw new Error(p.error);
      return { behavior, source: 'user', rule: p.rule };
    }),
  );
  return { mode: spec.mode ?? 'default', rules, workdir: WORKDIR, ...(spec.dirs ? { additionalDirectories: spec.dirs } : {}) };
}

type Case = [label: string, name: string, input: unknown, spec: Spec, expected: 'allow' | 'ask' | 'deny'];

// Claude Code: reads are confined to the working directory and additionalDirectories; Read, Glob,
// Grep and read-only shell commands whose paths point outside ask, unless an allow rule covers
// the path. `~` is the user's home, not the project.
const cases: Case[] = [
  // the file tools
  ['read inside the workdir passes', 'read', { file_path: 'src/a.ts' }, {}, 'allow'],
  ['read of an absolute path outside asks', 'read', { file_path: '/etc/hosts' }, {}, 'ask'],
  ['read of ../ asks', 'read', { file_path: '../other/x.txt' }, {}, 'ask'],
  ['read of ~/.ssh/id_rsa asks (home is outside the project)', 'read', { file_path: '~/.ssh/id_rsa' }, {}, 'ask'],
  ['a Read allow rule for the path settles it', 'read', { file_path: '/etc/hosts' }, { allow: ['Read(//etc/**)'] }, 'allow'],
  ['a Read allow for another path does not', 'read', { file_path: '/etc/hosts' }, { allow: ['Read(//var/**)'] }, 'ask'],
  // Issue 20 §4: as in Claude Code, an Edit allow for a path outside also covers reading it.
  ['an Edit allow for an outside path covers reading it', 'read', { file_path: '/srv/notes/a.md' }, { allow: ['Edit(//srv/notes/**)'] }, 'allow'],
  ['an Edit allow covers an outside shell read of it', 'bash', { command: 'cat /srv/notes/a.md' }, { allow: ['Edit(//srv/notes/**)'] }, 'allow'],
  ['an Edit allow covers searching it', 'grep', { pattern: 'x', path: '/srv/notes' }, { allow: ['Edit(//srv/notes/**)'] }, 'allow'],
  ['an Edit allow for another path does not', 'read', { file_path: '/etc/hosts' }, { allow: ['Edit(//srv/notes/**)'] }, 'ask'],
  ['a Read deny beats the Edit allow', 'read', { file_path: '/srv/notes/.env' }, { allow: ['Edit(//srv/notes/**)'], deny: ['Read(//srv/notes/.env)'] }, 'deny'],
  ['an additionalDirectories entry covers it', 'read', { file_path: '/srv/shared/a.md' }, { dirs: ['/srv/shared'] }, 'allow'],
  ['an additional directory relative to the workdir', 'read', { file_path: '/home/lib/x.ts' }, { dirs: ['../lib'] }, 'allow'],
  ['an additional directory under ~', 'read', { file_path: `${HOME_DIR}/notes/a.md` }, { dirs: ['~/notes'] }, 'allow'],
  ['an additional directory does not cover its sibling', 'read', { file_path: '/srv/other/a.md' }, { dirs: ['/srv/shared'] }, 'ask'],
  ['a deny still beats an additional directory', 'read', { file_path: '/srv/shared/.env.local' }, { dirs: ['/srv/shared'], deny: ['Read(.env.*)', 'Read(//srv/**/.env.*)'] }, 'deny'],
  ['no mode lets an outside read through: acceptEdits', 'read', { file_path: '/etc/hosts' }, { mode: 'acceptEdits' }, 'ask'],
  ['no mode lets an outside read through: bypassPermissions', 'read', { file_path: '/etc/hosts' }, { mode: 'bypassPermissions' }, 'ask'],
  ['dontAsk denies an outside read', 'read', { file_path: '/etc/hosts' }, { mode: 'dontAsk' }, 'deny'],
  ['plan mode asks for an outside read (it is read-only)', 'read', { file_path: '/etc/hosts' }, { mode: 'plan' }, 'ask'],
  ['glob in the workdir passes', 'glob', { pattern: '**/*.ts' }, {}, 'allow'],
  ['glob with an outside path asks', 'glob', { pattern: '**/*', path: '/etc' }, {}, 'ask'],
  ['glob with an absolute outside pattern asks', 'glob', { pattern: '/etc/**/*.conf' }, {}, 'ask'],
  ['glob of ~ asks', 'glob', { pattern: '*', path: '~' }, {}, 'ask'],
  ['glob outside, allowed by a Read rule', 'glob', { pattern: '**/*', path: '/etc' }, { allow: ['Read(//etc/**)'] }, 'allow'],
  ['grep in the workdir passes', 'grep', { pattern: 'TODO' }, {}, 'allow'],
  ['grep of ../.. asks', 'grep', { pattern: 'password', path: '../..' }, {}, 'ask'],
  ['grep in an additional directory passes', 'grep', { pattern: 'x', path: '/srv/shared' }, { dirs: ['/srv/shared'] }, 'allow'],
  ['a Read deny of a directory denies searching it', 'grep', { pattern: 'x', path: 'secrets' }, { deny: ['Read(secrets/**)'] }, 'deny'],
  // read-only shell commands
  ['cat inside passes', 'bash', { command: 'cat README.md' }, {}, 'allow'],
  ['cat /elsewhere asks', 'bash', { command: 'cat /elsewhere/x' }, {}, 'ask'],
  ['ls ../.. asks', 'bash', { command: 'ls ../..' }, {}, 'ask'],
  ['cat ~/.ssh/id_rsa asks', 'bash', { command: 'cat ~/.ssh/id_rsa' }, {}, 'ask'],
  ['cat $HOME/.bashrc asks', 'bash', { command: 'cat $HOME/.bashrc' }, {}, 'ask'],
  ['head in a pipeline asks for the outside part', 'bash', { command: 'ls && head -n 3 /etc/passwd | wc -l' }, {}, 'ask'],
  ['cd out then read asks', 'bash', { command: 'cd /etc && cat hosts' }, {}, 'ask'],
  ['a bare cd goes home: reading there asks', 'bash', { command: 'cd && cat .bashrc' }, {}, 'ask'],
  ['find / asks', 'bash', { command: 'find / -name "*.pem"' }, {}, 'ask'],
  ['< redirection from outside asks', 'bash', { command: 'wc -l < /etc/passwd' }, {}, 'ask'],
  ['grep takes its pattern first: a pattern is not a path', 'bash', { command: 'grep /etc/passwd notes.txt' }, {}, 'allow'],
  ['but grep of an outside file asks', 'bash', { command: 'grep root /etc/passwd' }, {}, 'ask'],
  ['/dev/null is no one\'s file', 'bash', { command: 'diff /dev/null README.md' }, {}, 'allow'],
  ['a Read allow rule settles the shell read', 'bash', { command: 'cat /etc/hosts' }, { allow: ['Read(//etc/hosts)'] }, 'allow'],
  ['an additional directory settles the shell read', 'bash', { command: 'ls /srv/shared' }, { dirs: ['/srv/shared'] }, 'allow'],
  ['a Bash allow rule does not widen where reads go', 'bash', { command: 'cat /etc/shadow' }, { allow: ['Bash(cat *)'] }, 'ask'],
  ['bypassPermissions still asks for an outside shell read', 'bash', { command: 'cat /etc/hosts' }, { mode: 'bypassPermissions' }, 'ask'],
  ['dontAsk denies an outside shell read', 'bash', { command: 'ls ../..' }, { mode: 'dontAsk' }, 'deny'],
  ['a Read deny on the outside path denies', 'bash', { command: 'cat ~/.aws/credentials' }, { deny: ['Read(~/.aws/**)'] }, 'deny'],
];

describe('reads outside the working directory', () => {
  it.each(cases)('%s', async (_label, name, input, spec, expected) => {
    const r = await whatIf({ name, input }, ctxOf(spec), tools);
    const outcome = r.outcome === 'ask' ? 'ask' : r.outcome;
    expect(outcome).toBe(expected);
    // Decided again on just-bash's AST (the executor's parser): both must agree.
    const byAst = await whatIf({ name, input }, { ...ctxOf(spec), shell: justBashShellParser }, tools);
    expect(byAst.outcome, 'just-bash AST vs lexer').toBe(r.outcome);
  });

  it('says which path is outside and what would settle it', async () => {
    const bash = await whatIf({ name: 'bash', input: { command: 'ls && cat /etc/hosts' } }, ctxOf({}), tools);
    expect(bash.reason).toMatch(/"cat \/etc\/hosts" reads \/etc\/hosts, outside the working directory/);
    const read = await whatIf({ name: 'read', input: { file_path: '/etc/hosts' } }, ctxOf({}), tools);
    expect(read.reason).toMatch(/\/etc\/hosts is outside the working directory .*Read\(\.\.\.\) allow rule.*additionalDirectories/);
  });

  it('"allow for this session" grants just that path (a search: that tree)', () => {
    expect(suggestRules({ name: 'bash', input: { command: 'cat /etc/hosts' } }, { workdir: WORKDIR })).toEqual(['Read(//etc/hosts)']);
    expect(suggestRules({ name: 'grep', input: { pattern: 'x', path: '/srv/data' } }, { workdir: WORKDIR })).toEqual(['Read(//srv/data/**)']);
    expect(suggestRules({ name: 'read', input: { file_path: '~/.bashrc' } }, { workdir: WORKDIR })).toEqual([`Read(/${HOME_DIR}/.bashrc)`]);
  });
});
