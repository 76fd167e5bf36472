/**
 * Issue 19 §4: memory files as Claude Code reads them — the user's ~/.claude/CLAUDE.md, per
 * directory CLAUDE.md, .claude/CLAUDE.md and CLAUDE.local.md, and .claude/rules/**\/*.md (with
 * `paths:` frontmatter) are injected, not only listed.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { HOME_DIR } from '../../src/harness/ports.ts';
import { addQuickMemory, discoverClaudeMd, quickAddNote, recordReader } from '../../src/harness/memory/index.ts';
import { loadClaudeDir } from '../../src/harness/claude-dir/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';
import { prepareRun } from '../../src/run/prepare.ts';

const P = '/home/project';

describe('memory files Claude Code reads', () => {
  it('user memory first, then per directory CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md, then .claude/rules', async () => {
    const sb = await createJustBashSandbox({
      files: {
        [`${HOME_DIR}/.claude/CLAUDE.md`]: 'USER-PREFS',
        [`${P}/CLAUDE.md`]: 'PROJECT-SHARED',
        [`${P}/.claude/CLAUDE.md`]: 'PROJECT-DOT-CLAUDE',
        [`${P}/CLAUDE.local.md`]: 'PROJECT-LOCAL',
        [`${P}/.claude/rules/style.md`]: 'RULE-STYLE',
        [`${P}/.claude/rules/api/rest.md`]: '---\npaths:\n  - "src/api/**/*.ts"\n  - lib/**\n---\nRULE-REST',
        [`${P}/.claude/rules/notes.txt`]: 'NOT-A-RULE',
      },
    });
    const r = await discoverClaudeMd(sb.fs, P);
    expect(r.files.map((f) => f.path)).toEqual([
      `${HOME_DIR}/.claude/CLAUDE.md`,
      `${P}/CLAUDE.md`,
      `${P}/.claude/CLAUDE.md`,
      `${P}/CLAUDE.local.md`,
      `${P}/.claude/rules/api/rest.md`,
      `${P}/.claude/rules/style.md`,
    ]);
    const order = ['USER-PREFS', 'PROJECT-SHARED', 'PROJECT-DOT-CLAUDE', 'PROJECT-LOCAL', 'RULE-REST', 'RULE-STYLE'].map((t) => r.text.indexOf(t));
    expect(order.every((i, k) => i >= 0 && (k === 0 || i > order[k - 1]!))).toBe(true);
    expect(r.text).toContain(`Contents of ${HOME_DIR}/.claude/CLAUDE.md (the user's memory):`);
    expect(r.text).toContain(`Contents of ${P}/.claude/rules/api/rest.md (a rule for files matching src/api/**/*.ts, lib/**):\n\nRULE-REST`);
    expect(r.text).not.toContain('paths:');
    expect(r.text).not.toContain('NOT-A-RULE');
  });

  it('a scenario files map before the sandbox exists finds the rules too', async () => {
    const r = await discoverClaudeMd(recordReader({ 'CLAUDE.local.md': 'L', '.claude/rules/a.md': 'A' }), P);
    expect(r.files.map((f) => f.path)).toEqual([`${P}/CLAUDE.local.md`, `${P}/.claude/rules/a.md`]);
  });

  it("an imported ~/.claude/CLAUDE.md and CLAUDE.local.md reach the model's first request", async () => {
    const imp = loadClaudeDir({ '~/.claude/CLAUDE.md': 'USER-MEMORY-FROM-IMPORT', 'CLAUDE.local.md': 'LOCAL-MEMORY', '.claude/rules/r.md': 'RULE-FROM-IMPORT' });
    expect(imp.notes.join('\n')).not.toMatch(/not injected/);
    const base = findBuiltinScenario('fix-a-bug')!;
    const sandbox = await createJustBashSandbox();
    const { input } = await prepareRun({ scenario: { ...base, files: { ...base.files, ...imp.sandboxFiles } }, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
    expect(input.memory).toContain('USER-MEMORY-FROM-IMPORT');
    expect(input.memory).toContain('LOCAL-MEMORY');
    expect(input.memory).toContain('RULE-FROM-IMPORT');
    // The user's file lives in the sandbox's home, not in the project.
    expect(await sandbox.fs.readFile(`${HOME_DIR}/.claude/CLAUDE.md`)).toBe('USER-MEMORY-FROM-IMPORT');
    expect(await sandbox.fs.stat(`${P}/~/.claude/CLAUDE.md`)).toBeNull();
  });
});

describe('the # quick-add (Claude Code\'s)', () => {
  it('a prompt starting with one # is a memory; ## and ordinary prompts are not', () => {
    expect(quickAddNote('# always run npm test before committing')).toBe('always run npm test before committing');
    expect(quickAddNote('#use pnpm,\n not npm')).toBe('use pnpm, not npm');
    expect(quickAddNote('## Heading')).toBeNull();
    expect(quickAddNote('#')).toBeNull();
    expect(quickAddNote('Remember: tabs')).toBeNull();
    expect(quickAddNote('fix #12')).toBeNull();
  });

  it('saves a bullet to the project CLAUDE.md, which the next discovery injects', async () => {
    const sb = await createJustBashSandbox({ files: { [`${P}/CLAUDE.md`]: '# notes\n- old' } });
    const r = await addQuickMemory(sb.fs, P, 'use pnpm');
    expect(r).toEqual({ path: `${P}/CLAUDE.md`, line: '- use pnpm' });
    expect(await sb.fs.readFile(`${P}/CLAUDE.md`)).toBe('# notes\n- old\n- use pnpm\n');
    const empty = await createJustBashSandbox();
    await addQuickMemory(empty.fs, P, 'first note');
    expect((await discoverClaudeMd(empty.fs, P)).text).toContain('- first note');
  });
});
