/**
 * Subagent definition files: Claude Code's frontmatter, Claude Code's tool names mapped to ours,
 * errors with the file and line, and one bad file never stops the others from loading.
 */
import { describe, expect, it } from 'vitest';
import { loadDefinitions, parseDefinition, childMode } from '../../src/harness/agents/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

describe('subagent definitions', () => {
  it('parses every frontmatter field and the body as the system prompt', () => {
    const text = ['---', 'name: test-runner', 'description: Runs the tests and reports failures', 'tools: Bash, Read, Grep', 'model: haiku', 'permissionMode: acceptEdits', 'maxTurns: 7', '---', '', 'You run tests.', 'Report briefly.'].join('\n');
    const r = parseDefinition('.claude/agents/test-runner.md', text);
    expect(r).toEqual({
      ok: true,
      warnings: [],
      definition: {
        name: 'test-runner',
        description: 'Runs the tests and reports failures',
        tools: ['bash', 'read', 'grep'],
        model: 'haiku',
        permissionMode: 'acceptEdits',
        maxTurns: 7,
        system: 'You run tests.\nReport briefly.',
        source: '.claude/agents/test-runner.md',
      },
    });
  });

  it('accepts tools as a YAML list and treats model: inherit as no model', () => {
    const r = parseDefinition('x.md', '---\nname: x\ndescription: d\nmodel: inherit\ntools:\n  - Read\n  - todo_write\n---\nbody');
    expect(r.ok && r.definition).toMatchObject({ tools: ['read', 'todo_write'] });
    expect(r.ok && 'model' in r.definition).toBe(false);
  });

  it('reports the file and the line of what is wrong', () => {
    const cases: [string, number, RegExp][] = [
      ['no frontmatter at all', 1, /must start with a "---" line/],
      ['---\nname: x\ndescription: d\n', 1, /not closed/],
      ['---\nname: x\ndescription: d\nmaxTurns: lots\n---\nbody', 4, /maxTurns: expected number/],
      ['---\nname: x\ndescription: [unclosed\n---\nbody', 3, /YAML syntax/],
      ['---\nname: Bad Name\ndescription: d\n---\n', 2, /name: .*lower-case/],
      ['---\nname: x\ndescription: d\npermissionMode: yolo\n---\n', 4, /permissionMode: must be one of/],
      ['---\nname: x\n---\nbody', 2, /description: missing/],
    ];
    for (const [text, line, message] of cases) {
      const r = parseDefinition('.claude/agents/bad.md', text);
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      expect(r.problem.path).toBe('.claude/agents/bad.md');
      expect(r.problem.line, text).toBe(line);
      expect(r.problem.message, text).toMatch(message);
    }
  });

  it('loads the built-in agent and every good file; a bad file is reported and the others still load', async () => {
    const sandbox = await createJustBashSandbox({
      files: {
        '.claude/agents/a-good.md': '---\nname: reviewer\ndescription: Reviews\n---\nReview.',
        '.claude/agents/b-bad.md': '---\nname: broken\ndescription: d\nmaxTurns: -1\n---\n',
        '.claude/agents/c-good.md': '---\nname: writer\ndescription: Writes\n---\nWrite.',
        '.claude/agents/notes.txt': 'not a definition',
      },
    });
    const { definitions, problems } = await loadDefinitions(sandbox.fs, sandbox.workdir);
    expect(definitions.map((d) => d.name)).toEqual(['general-purpose', 'reviewer', 'writer']);
    expect(problems).toEqual([{ path: '.claude/agents/b-bad.md', line: 4, message: expect.stringMatching(/^maxTurns: must be at least 1/) }]);
    const empty = await createJustBashSandbox({ files: {} });
    expect((await loadDefinitions(empty.fs, empty.workdir)).definitions.map((d) => d.name)).toEqual(['general-purpose']);
  });

  it('a definition may narrow the mode but never widen it', () => {
    expect(childMode('default', 'plan')).toEqual({ mode: 'plan' });
    expect(childMode('bypassPermissions', 'acceptEdits')).toEqual({ mode: 'acceptEdits' });
    expect(childMode('default', undefined)).toEqual({ mode: 'default' });
    expect(childMode('plan', 'bypassPermissions').mode).toBe('plan');
    expect(childMode('default', 'acceptEdits').note).toMatch(/more permissive/);
  });
});
