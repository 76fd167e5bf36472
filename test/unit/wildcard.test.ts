/**
 * The shared wildcard matcher (`util/wildcard.ts`) behind glob patterns, path rules and Bash rule
 * specifiers: linear time, proved on its step counter (never a clock), and each dialect matching
 * exactly as the regular expressions it replaced.
 */
import { describe, expect, it } from 'vitest';
import { anyChar, compileWildcard, lit, notSlash, seq, star } from '../../src/harness/util/wildcard.ts';
import { compileGlob } from '../../src/harness/tools/glob-match.ts';
import { matchPathPattern } from '../../src/harness/permissions/path-match.ts';
import { matchBashSpecifier } from '../../src/harness/permissions/bash-command.ts';

/** `a*a*a*a*a*b` in the shared tree. */
function pathological(test = anyChar) {
  return compileWildcard(seq(lit('a'), star(test), lit('a'), star(test), lit('a'), star(test), lit('a'), star(test), lit('a'), star(test), lit('b')));
}

describe('the linear-time wildcard matcher', () => {
  it('a*a*a*a*a*b against 10,000 a’s: no match, within 2 × states × (n + 1) steps', () => {
    const w = pathological();
    const input = 'a'.repeat(10_000);
    const { matched, steps } = w.run(input);
    expect(matched).toBe(false);
    expect(steps).toBeLessThanOrEqual(2 * w.size * (input.length + 1));
    // Doubling the input doubles the work (a backtracking engine's grows as n^5).
    const twice = w.run('a'.repeat(20_000)).steps;
    expect(twice / steps).toBeLessThan(2.01);
  });

  it('the same bound holds through each dialect’s pattern', () => {
    const input = 'a'.repeat(10_000);
    expect(compileGlob('a*a*a*a*a*b')(input)).toBe(false);
    expect(compileGlob('**/a*a*a*a*a*b')(`x/${input}`)).toBe(false);
    expect(matchPathPattern('a*a*a*a*a*b', `/home/project/${input}`, '/home/project')).toBe(false);
    expect(matchBashSpecifier('a*a*a*a*a*b', input)).toBe(false);
    const seg = pathological(notSlash);
    expect(seg.run(input).steps).toBeLessThanOrEqual(2 * seg.size * (input.length + 1));
  });

  it('still matches what it should', () => {
    expect(pathological().test('aaaaab')).toBe(true);
    expect(pathological().test(`${'a'.repeat(5000)}b`)).toBe(true);
    expect(pathological().test('aaaab')).toBe(false);
    expect(compileWildcard(lit('')).test('')).toBe(true);
    expect(compileWildcard(lit('ab'), { ignoreCase: true }).test('AB')).toBe(true);
  });
});

// Each dialect against the RegExp it used to compile to (the old translators, kept here as the oracle).
describe('the dialects match as their old regular expressions did', () => {
  const paths = ['src/a.ts', 'src/a/b.ts', 'a.ts', '.env', 'src/.env', 'x/y/z/c.md', 'src/{a}.ts', 'src/[a].ts', 'A.TS', 'src/a.tsx', 'docs/a b.md', 'a/b\nc.ts'];
  const globs: [string, RegExp][] = [
    ['*.ts', /^[^/]*\.ts$/],
    ['**/*.ts', /^(?:.*\/)?[^/]*\.ts$/],
    ['src/**', /^src\/.*$/],
    ['src/*.{ts,tsx}', /^src\/[^/]*\.(?:ts|tsx)$/],
    ['src/[ab].ts', /^src\/[ab]\.ts$/],
    ['src/[!b].ts', /^src\/[^/b]\.ts$/],
    ['?.ts', /^[^/]\.ts$/],
    ['src/\\{a}.ts', /^src\/\{a\}\.ts$/],
    ['src/{a}.ts', /^src\/\{a\}\.ts$/],
    ['**', /^.*$/],
  ];
  it.each(globs)('glob %s', (pattern, re) => {
    for (const p of paths) expect(compileGlob(pattern)(p), `${pattern} vs ${JSON.stringify(p)}`).toBe(re.test(p));
  });

  it('glob ignoreCase', () => {
    expect(compileGlob('*.ts', { ignoreCase: true })('A.TS')).toBe(true);
    expect(compileGlob('[a-c].TS', { ignoreCase: true })('B.ts')).toBe(true);
  });

  const W = '/home/project';
  const abs = ['/home/project/.env', '/home/project/src/.env', '/home/project/src/a.ts', '/home/project/src/a/b.ts', '/home/project/secrets/x/y.txt', '/etc/hosts', '/home/user/.ssh/id_rsa', '/home/project/[a].ts', '/home/project/a.ts'];
  const rules: [string, string[]][] = [
    ['.env', ['/home/project/.env', '/home/project/src/.env']],
    ['src/*', ['/home/project/src/.env', '/home/project/src/a.ts', '/home/project/src/a/b.ts']],
    ['secrets/**', ['/home/project/secrets/x/y.txt']],
    ['**/*.ts', ['/home/project/src/a.ts', '/home/project/src/a/b.ts', '/home/project/[a].ts', '/home/project/a.ts']],
    ['//etc/*', ['/etc/hosts']],
    ['~/.ssh/**', ['/home/user/.ssh/id_rsa']],
    ['[a].ts', ['/home/project/[a].ts']],
    ['/?.ts', ['/home/project/a.ts']],
  ];
  it.each(rules)('path rule %s', (pattern, expected) => {
    expect(abs.filter((p) => matchPathPattern(pattern, p, W))).toEqual(expected);
  });

  const specs: [string, string, boolean][] = [
    ['npm run *', 'npm run build', true],
    ['npm run *', 'npm run', true],
    ['ls *', 'lsof', false],
    ['git * main', 'git push origin main', true],
    ['git * main', 'git push origin main2', false],
    ['echo ?', 'echo a', false],
    ['echo ?', 'echo ?', true],
    ['cat *.txt', 'cat a/b.txt', true],
    ['npm run:*', 'npm run build', true],
    ['npm run:*', 'npm runx', false],
  ];
  it.each(specs)('Bash(%s) vs %s', (spec, command, expected) => {
    expect(matchBashSpecifier(spec, command)).toBe(expected);
  });

  it('where we differ from Claude Code (README): path rules and Bash specifiers', () => {
    // gitignore would read these as a class, an escape, a negation and a directory-only rule.
    expect(matchPathPattern('[ab].ts', '/home/project/a.ts', W)).toBe(false);
    expect(matchPathPattern('\\a.ts', '/home/project/a.ts', W)).toBe(false);
    expect(matchPathPattern('!a.ts', '/home/project/!a.ts', W)).toBe(true);
    expect(matchPathPattern('build/', '/home/project/build', W)).toBe(true);
    // `\*` is not an escaped star in a Bash specifier.
    expect(matchBashSpecifier('echo \\*', 'echo \\anything')).toBe(true);
  });
});
