/**
 * Attacker: a document whose regexes are built to backtrack forever — `(a+)+$` as a YAML tier
 * pattern and as a hook matcher, `a*a*a*…` as a Bash rule glob — sent against a 50,000-char
 * command. With the built-in backtracking RegExp each of these would freeze the tab. Every
 * document regex must run on the linear engine, and what RE2 cannot run is refused at parse time.
 */
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../src/harness/settings/parse.ts';
import { mergeSettings, permissionContextOf } from '../../src/harness/settings/merge.ts';
import { callFacts, evaluateRules, matchBashSpecifier } from '../../src/harness/permissions/index.ts';
import { compileMatcher } from '../../src/harness/hooks/matcher.ts';
import { compileSafeRegex } from '../../src/harness/util/safe-regex.ts';

const WORKDIR = '/home/project';
const LONG = `${'a'.repeat(50_000)}!`;

describe('a catastrophic regex from a document cannot freeze the tab', () => {
  it('a YAML tier pattern (a+)+$ is judged against a 50k-char command, with the linear engine', () => {
    const parsed = parseSettings('ask_user:\n  - pattern: "(a+)+$"\n    reason: nested quantifier\nalways_deny:\n  - "^rm "\n', 'yaml');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const ctx = permissionContextOf(mergeSettings([{ source: 'scenario', settings: parsed.settings }]), WORKDIR);
    // `(a+)+$` does not match "aaa…a!" — the case that backtracks exponentially in RegExp.
    const verdict = evaluateRules(callFacts('bash', { command: `echo ${LONG}` }, WORKDIR, WORKDIR), ctx.rules, WORKDIR);
    expect(verdict.decision).not.toBe('ask');
    const matching = evaluateRules(callFacts('bash', { command: `echo ${'a'.repeat(50_000)}` }, WORKDIR, WORKDIR), ctx.rules, WORKDIR);
    expect(matching.decision).toBe('ask');
    expect(matching.reason).toContain('nested quantifier');
    const compiled = compileSafeRegex('(a+)+$', { ignoreCase: true });
    expect(compiled.ok && compiled.regex.engine).toBe('re2');
  });

  it('a backreference or lookahead (which only a backtracking engine runs) is a settings error with line and column', () => {
    const parsed = parseSettings('always_deny:\n  - "(a)\\\\1+$"\nask_user:\n  - "(?=a+)+b"\n', 'yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors).toHaveLength(2);
    expect(parsed.errors[0]).toMatchObject({ line: 2 });
    expect(parsed.errors[0]!.message).toMatch(/backreferences and lookaround are not supported/);
    expect(parsed.errors[1]).toMatchObject({ line: 4 });
  });

  it('a hook matcher (a+)+$ is compiled for the linear engine and tested against a 50k-char value', () => {
    const m = compileMatcher('(a+)+$');
    expect(m.ok && m.kind).toBe('regex');
    if (!m.ok) return;
    expect(m.test(LONG)).toBe(false);
    expect(m.test('aaaa')).toBe(true);
    const refused = compileMatcher('(a)\\1');
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toMatch(/its hooks never run/);
  });

  it('a Bash rule glob with many stars is matched in linear time', () => {
    const spec = `${'a*'.repeat(30)}b`;
    expect(matchBashSpecifier(spec, LONG)).toBe(false);
    expect(matchBashSpecifier('echo *', `echo ${LONG}`)).toBe(true);
  });
});
