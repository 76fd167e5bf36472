/**
 * Issue 21 §6: the wildcard syntax of permission rules, line by line against Claude Code's
 * permissions docs (the rule tables in permissions-rules.test.ts hold the rest). Each row decides a
 * call with both shell parsers (our lexer and just-bash's AST) and requires them to agree. Where we
 * read a line differently it is named in README "Where we differ" (`/path` in a user-scope rule).
 */
import { describe, expect, it } from 'vitest';
import { callFacts } from '../../src/harness/permissions/call-facts.ts';
import { evaluateRules } from '../../src/harness/permissions/evaluate.ts';
import { parseRule } from '../../src/harness/permissions/rules.ts';
import type { RuleSource, SourcedRule } from '../../src/harness/permissions/types.ts';
import { justBashShellParser } from '../../src/sandbox/justbash/shell-parser.ts';

const W = '/home/project';

function decide(name: string, input: unknown, allow: string, source: RuleSource = 'project'): string {
  const p = parseRule(allow);
  if (!p.ok) throw new Error(p.error);
  const rules: SourcedRule[] = [{ behavior: 'allow', source, rule: p.rule }];
  const byLexer = evaluateRules(callFacts(name, input, W, W), rules, W).decision;
  const byAst = evaluateRules(callFacts(name, input, W, W, justBashShellParser), rules, W).decision;
  expect(byAst, 'just-bash AST vs lexer').toBe(byLexer);
  return byLexer;
}

type Row = [docsLine: string, rule: string, command: string, matches: boolean];

describe('Bash specifiers, as the docs write them', () => {
  it.each<Row>([
    ['Bash(npm run build) matches the exact command', 'Bash(npm run build)', 'npm run build', true],
    ['… and not another', 'Bash(npm run build)', 'npm run test', false],
    ['Bash(npm run test *) matches commands starting with npm run test', 'Bash(npm run test *)', 'npm run test --watch', true],
    ['the legacy :* suffix is the same as " *"', 'Bash(npm run test:*)', 'npm run test --watch', true],
    ['… so it does not match npm run test:unit (word boundary)', 'Bash(npm run test:*)', 'npm run test:unit', false],
    ['" *" does not match npm run test:unit either', 'Bash(npm run test *)', 'npm run test:unit', false],
    ['the space before * matters: Bash(ls *) matches ls -la', 'Bash(ls *)', 'ls -la', true],
    ['… but not lsof', 'Bash(ls *)', 'lsof', false],
    ['Bash(ls*) matches ls -la', 'Bash(ls*)', 'ls -la', true],
    ['… and lsof', 'Bash(ls*)', 'lsof', true],
    ['a wildcard at the start: Bash(* --version)', 'Bash(* --version)', 'node --version', true],
    ['a wildcard in the middle: Bash(git * main)', 'Bash(git * main)', 'git checkout main', true],
    ['… which still needs the words around it', 'Bash(git * main)', 'git checkout dev', false],
    ['a prefix rule does not cover a command chained after it', 'Bash(safe-cmd *)', 'safe-cmd && other-cmd', false],
  ])('%s', (_line, rule, command, matches) => {
    expect(decide('bash', { command }, rule)).toBe(matches ? 'allow' : 'passthrough');
  });
});

type PathRow = [docsLine: string, rule: string, path: string, matches: boolean, source?: RuleSource];

describe('Read / Edit paths, as the docs write them (gitignore style)', () => {
  it.each<PathRow>([
    ['//path is absolute from the filesystem root', 'Read(//etc/hosts)', '/etc/hosts', true],
    ['~/path is from the home directory', 'Read(~/Documents/*.pdf)', '/home/user/Documents/a.pdf', true],
    ['/path is anchored at the project root', 'Read(/src/*.ts)', `${W}/src/a.ts`, true],
    ['… not deeper', 'Read(/src/*.ts)', `${W}/lib/src/a.ts`, false],
    ['path (no slash) matches at any depth below the working directory', 'Read(*.env)', `${W}/a/b/x.env`, true],
    ['./path is relative to the working directory', 'Read(./.env)', `${W}/.env`, true],
    ['* matches files in one directory', 'Read(src/*.ts)', `${W}/src/a.ts`, true],
    ['… not in a subdirectory', 'Read(src/*.ts)', `${W}/src/deep/a.ts`, false],
    ['** matches recursively', 'Read(src/**/*.ts)', `${W}/src/deep/er/a.ts`, true],
    ['… zero directories too', 'Read(src/**/*.ts)', `${W}/src/a.ts`, true],
    ['a directory rule covers what is inside it', 'Read(docs)', `${W}/docs/a/b.md`, true],
    ['/path in a user-scope rule: the project root here too (see README)', 'Read(/src/*.ts)', `${W}/src/a.ts`, true, 'user'],
  ])('%s', (_line, rule, path, matches, source) => {
    expect(decide('read', { file_path: path }, rule, source)).toBe(matches ? 'allow' : 'passthrough');
  });
});
