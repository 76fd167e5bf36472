/**
 * The permission check judged on the executor's own AST (just-bash's parser, through the
 * `ShellParser` port) against our lexer. Every other permission table decides each case with both
 * parsers and requires them to agree (permissions-rules, -modes, -read-scope); this file holds the
 * tricky commands, and names every case where the two disagree and why the AST's decision is the
 * safe one: it sees what the shell will run, or it fails closed (asks).
 */
import { describe, expect, it } from 'vitest';
import { judge, lexerShellParser, parseRule, type PermissionMode, type RuleBehavior, type ShellParser, type SourcedRule } from '../../src/harness/permissions/index.ts';
import { WORKDIR } from '../../src/harness/ports.ts';
import { justBashShellParser } from '../../src/sandbox/justbash/shell-parser.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';

type Spec = Partial<Record<RuleBehavior, string[]>>;

const RULES: Spec = { allow: ['Bash(echo *)', 'Bash(cat *)', 'Bash(npm test *)', 'Bash(git status)'], deny: ['Bash(rm *)'] };

function rules(spec: Spec): SourcedRule[] {
  return (['deny', 'ask', 'allow'] as const).flatMap((behavior) =>
    (spec[behavior] ?? []).map((text) => {
      const p = parseRule(text);
      if (!p.ok) throw new Error(p.error);
      return { behavior, source: 'project', rule: p.rule };
    }),
  );
}

function decide(shell: ShellParser, command: string, mode: PermissionMode = 'default', spec: Spec = RULES) {
  return judge({ name: 'bash', input: { command }, ctx: { mode, rules: rules(spec), workdir: WORKDIR, shell }, toolReadOnly: false }).final.decision;
}

type Same = [label: string, command: string, decision: 'allow' | 'ask' | 'deny'];

// Both parsers see the same simple commands here.
const same: Same[] = [
  ['single and double quotes', `echo 'a; rm x' "b && rm y"`, 'allow'],
  ['escaped separators', 'echo a\\;rm\\ x', 'allow'],
  ['; && || | & each a part', 'echo a; cat f && echo b || cat g | cat & echo c', 'allow'],
  ['a denied part after ;', 'echo a; rm -rf x', 'deny'],
  ['a denied part after &&', 'echo a && rm -rf x', 'deny'],
  ['a denied part after ||', 'cat f || rm -rf x', 'deny'],
  ['a denied part after |', 'cat f | rm -rf x', 'deny'],
  ['a denied part after &', 'echo a & rm -rf x', 'deny'],
  ['a denied part after |&', 'echo a |& rm -rf x', 'deny'],
  ['a denied part on the next line', 'echo a\nrm -rf x', 'deny'],
  ['$(…) runs', 'echo $(rm -rf x)', 'deny'],
  ['backticks run', 'echo `rm -rf x`', 'deny'],
  ['nested backticks run', 'echo `echo \\`rm -rf x\\``', 'deny'],
  ['<(…) runs', 'cat <(rm -rf x)', 'deny'],
  ['$(…) inside double quotes runs', 'echo "$(rm -rf x)"', 'deny'],
  ['a quoted ) inside $(…)', 'echo "$(echo ")"; rm -rf x)"', 'deny'],
  ["a quoted here-document's body does not run", "cat <<'EOF'\nrm -rf x\nEOF", 'allow'],
  ['a comment does not run', 'echo hi # ; rm -rf x', 'allow'],
  ['a line continuation joins words', 'echo a \\\n  b', 'allow'],
  ['env X=1 cmd is not stripped (env is the program)', 'env X=1 rm -rf x', 'ask'],
  ['command prefix: the program is `command`', 'command rm -rf x', 'ask'],
  ['builtin prefix: the program is `builtin`', 'builtin echo hi', 'ask'],
  ['X=1 cmd: the assignment is stripped', 'X=1 rm -rf x', 'deny'],
  ['brace group: each command', '{ echo a; rm -rf x; }', 'deny'],
  ['brace group redirected to a file asks for the write', '{ echo a; echo b; } > out.txt', 'ask'],
  ['subshell: each command', '(cd sub && rm -rf x)', 'deny'],
  ['if / then / fi', 'if cat f; then rm -rf x; fi', 'deny'],
  ['for loop body', 'for f in a b; do rm -rf "$f"; done', 'deny'],
  ['while loop with input redirect', 'while cat f; do echo x; done < in.txt', 'allow'],
  ['case arm', 'case $x in a) rm -rf y;; esac', 'deny'],
  ['a function body is judged (deny still applies)', 'f() { rm -rf /; }; f', 'deny'],
  ['an unclosed quote asks', "cat 'unclosed", 'ask'],
  ['bash -c hides a command: denied inside', "bash -c 'rm -rf x'", 'deny'],
  ['eval hides a command: denied inside', 'eval "rm -rf x"', 'deny'],
];

type Differs = [label: string, command: string, mode: PermissionMode, lexer: 'allow' | 'ask' | 'deny', ast: 'allow' | 'ask' | 'deny'];

// Where the two disagree. Each is a case the AST gets right (it sees what runs) or fails closed on.
const differs: Differs[] = [
  // The lexer skips here-document bodies; an unquoted one expands `$(…)`, which runs.
  ['$(…) in an unquoted here-document body runs (lexer: skipped the body)', 'cat <<EOF\n$(rm -rf x)\nEOF', 'default', 'allow', 'deny'],
  // The lexer does not look inside ${…}; a default value's substitution runs.
  ['$(…) in a ${x:-…} default runs (lexer: skipped ${…})', 'echo ${x:-$(rm -rf x)}', 'default', 'allow', 'deny'],
  // The lexer does not look inside $((…)); bash runs a substitution there. The AST fails closed (and sees the rm).
  ['$(…) inside $((…)) runs (lexer: skipped arithmetic)', 'echo $(( $(rm -rf x) ))', 'default', 'allow', 'deny'],
  ['a command inside arithmetic asks even when allowed', 'echo $(( $(npm test) ))', 'default', 'allow', 'ask'],
  // Brace expansion makes `{/etc/passwd,x}` two paths; the lexer saw one path inside the workdir.
  ['brace expansion is dynamic: acceptEdits does not auto-allow mkdir of it', 'mkdir {/etc/evil,x}', 'acceptEdits', 'allow', 'ask'],
  // ANSI-C quoting: `$'a\'; rm x'` is one word to bash; the lexer saw an unclosed quote and asked.
  ["$'…' with an escaped quote is one word (lexer: unclosed quote)", "echo $'a\\'; rm -rf x'", 'default', 'ask', 'allow'],
  // The executor refuses `;;` outside case: nothing runs; the lexer split it and allowed both.
  ['a syntax error the shell refuses asks (lexer: split on ;;)', 'echo a;; npm test', 'default', 'allow', 'ask'],
];

describe('the permission check on just-bash’s AST', () => {
  it.each(same)('%s — both parsers agree', (_label, command, expected) => {
    expect(decide(lexerShellParser, command)).toBe(expected);
    expect(decide(justBashShellParser, command)).toBe(expected);
  });

  it.each(differs)('%s', (_label, command, mode, lexer, ast) => {
    expect(decide(lexerShellParser, command, mode)).toBe(lexer);
    expect(decide(justBashShellParser, command, mode)).toBe(ast);
  });

  it('fails closed on what the mapper does not map, and keeps the commands it saw for deny rules', () => {
    for (const command of ['f() { echo hi; }', '(( i++ ))', 'for ((i=0; i<3; i++)); do echo $i; done', 'echo $(( $(echo 1) ))']) {
      const r = justBashShellParser.parse(command);
      expect(r.ok, command).toBe(false);
      expect(decide(justBashShellParser, command, 'bypassPermissions'), command).toBe('ask');
    }
    const r = justBashShellParser.parse('f() { rm -rf /; }');
    expect(r.ok ? [] : r.commands?.map((c) => c.words.map((w) => w.value).join(' '))).toEqual(['rm -rf /']);
  });

  it('a heredoc the lexer skipped really runs its substitution in the sandbox', async () => {
    // The disagreement above is not theoretical: the executor runs the command the lexer missed.
    const sb = await createJustBashSandbox();
    await sb.fs.writeFile(`${WORKDIR}/victim.txt`, 'x');
    await sb.exec('cat <<EOF\n$(rm victim.txt)\nEOF');
    expect(await sb.fs.stat(`${WORKDIR}/victim.txt`)).toBeNull();
    await sb.dispose();
  });

  it('maps words as the shell does: argv after quote removal, the raw text for rules, dynamic words', () => {
    const r = justBashShellParser.parse(`X=1 git commit -m "fix \\"a\\" $Y" a\\ b ~/c > out.txt 2>&1`);
    expect(r.ok).toBe(true);
    const [c] = r.ok ? r.commands : [];
    expect(c!.words.map((w) => w.value)).toEqual(['X=1', 'git', 'commit', '-m', 'fix "a" $Y', 'a b', '~/c']);
    expect(c!.words.map((w) => w.raw)).toEqual(['X=1', 'git', 'commit', '-m', '"fix \\"a\\" $Y"', 'a\\ b', '~/c']);
    expect(c!.words.map((w) => w.dynamic)).toEqual([false, false, false, false, true, false, false]);
    expect(c!.redirects).toEqual([
      { op: '>', target: 'out.txt', fdDup: false },
      { op: '>&', target: '1', fdDup: true },
    ]);
  });

  it('prepareRun binds the executor’s parser only when the sandbox is just-bash', async () => {
    const sandbox = await createJustBashSandbox();
    const scenario = findBuiltinScenario('layered-claude-settings')!;
    const opts = { scenario, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, shellParser: justBashShellParser };
    const bound = await prepareRun({ ...opts, sandbox });
    expect(bound.input.permissions?.shell).toBe(justBashShellParser);
    // Another executor (WebContainer's jsh) parses differently: the lexer judges there.
    const other = await prepareRun({ ...opts, sandbox: { ...sandbox, kind: 'webcontainer' } });
    expect(other.input.permissions?.shell).toBeUndefined();
    const none = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    expect(none.input.permissions?.shell).toBeUndefined();
    for (const p of [bound, other, none]) await p.dispose();
    await sandbox.dispose();
  });
});
