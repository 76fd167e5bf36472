import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { discoverClaudeMd, directoriesDownTo, findImports, recordReader } from '../../src/harness/memory/index.ts';

const sandboxWith = (files: Record<string, string>) => createJustBashSandbox({ files });

describe('CLAUDE.md discovery', () => {
  it('lists the directories from the root down to the working directory', () => {
    expect(directoriesDownTo('/home/project/src')).toEqual(['/', '/home', '/home/project', '/home/project/src']);
    expect(directoriesDownTo('/')).toEqual(['/']);
  });

  it('reads CLAUDE.md root first down to the cwd, each labelled with its path', async () => {
    const sb = await sandboxWith({
      '/CLAUDE.md': 'root rules',
      '/home/project/CLAUDE.md': 'project rules',
      '/home/project/src/CLAUDE.md': 'src rules',
      '/home/project/other/CLAUDE.md': 'not on the way down',
    });
    const r = await discoverClaudeMd(sb.fs, '/home/project/src');
    expect(r.files.map((f) => f.path)).toEqual(['/CLAUDE.md', '/home/project/CLAUDE.md', '/home/project/src/CLAUDE.md']);
    expect(r.text.indexOf('root rules')).toBeLessThan(r.text.indexOf('project rules'));
    expect(r.text.indexOf('project rules')).toBeLessThan(r.text.indexOf('src rules'));
    expect(r.text).toContain('Contents of /home/project/src/CLAUDE.md:\n\nsrc rules');
    expect(r.text).not.toContain('not on the way down');
    expect(r.problems).toEqual([]);
    expect(r.files[0]!.tokens).toBe(Math.ceil('root rules'.length / 4));
  });

  it('asks for every candidate file at once (a sandbox in a worker answers them back to back), and keeps the order', async () => {
    const sb = await sandboxWith({ '/CLAUDE.md': 'root rules', '/home/project/CLAUDE.local.md': 'local rules', '/home/project/.claude/rules/a.md': 'rule a' });
    let inFlight = 0;
    let most = 0;
    // Each answer comes a macrotask later, as from another thread: asked one at a time, at most one is ever pending.
    const slow = <T>(answer: Promise<T>): Promise<T> => {
      inFlight++;
      most = Math.max(most, inFlight);
      return new Promise<T>((resolve, reject) => setTimeout(() => answer.then(resolve, reject).finally(() => inFlight--), 1));
    };
    const fs = { stat: (p: string) => slow(sb.fs.stat(p)), readFile: (p: string) => slow(sb.fs.readFile(p)), list: (p: string) => slow(sb.fs.list(p)) };
    const r = await discoverClaudeMd(fs, '/home/project');
    // The user's CLAUDE.md and three names in each of /, /home and /home/project, plus the rules folder's listing.
    expect(most).toBeGreaterThanOrEqual(11);
    expect(r.files.map((f) => f.path)).toEqual(['/CLAUDE.md', '/home/project/CLAUDE.local.md', '/home/project/.claude/rules/a.md']);
    expect(r).toEqual(await discoverClaudeMd(sb.fs, '/home/project'));
  });

  it('finds nothing in an empty tree, without problems', async () => {
    const sb = await sandboxWith({});
    expect(await discoverClaudeMd(sb.fs, '/home/project')).toEqual({ text: '', files: [], problems: [] });
  });

  it('follows @imports relative to the importing file and ~/ from the project, after their importer', async () => {
    const sb = await sandboxWith({
      'CLAUDE.md': 'See @docs/style.md and @~/notes/team.md.\nThen the rest.',
      'docs/style.md': 'Use tabs. Also @../shared.md',
      'shared.md': 'shared words',
      'notes/team.md': 'team words',
      'src/CLAUDE.md': 'src rules',
    });
    const r = await discoverClaudeMd(sb.fs, '/home/project/src');
    expect(r.files).toEqual([
      { path: '/home/project/CLAUDE.md', tokens: expect.any(Number) },
      { path: '/home/project/docs/style.md', importedFrom: '/home/project/CLAUDE.md', tokens: expect.any(Number) },
      { path: '/home/project/shared.md', importedFrom: '/home/project/docs/style.md', tokens: expect.any(Number) },
      { path: '/home/project/notes/team.md', importedFrom: '/home/project/CLAUDE.md', tokens: expect.any(Number) },
      { path: '/home/project/src/CLAUDE.md', tokens: expect.any(Number) },
    ]);
    expect(r.text).toContain('Contents of /home/project/docs/style.md (imported by /home/project/CLAUDE.md):');
    expect(r.problems).toEqual([]);
  });

  it('follows imports 4 hops deep and reports the 5th', async () => {
    const sb = await sandboxWith({
      'CLAUDE.md': '@h1.md',
      'h1.md': '@h2.md',
      'h2.md': '@h3.md',
      'h3.md': '@h4.md',
      'h4.md': 'four hops @h5.md',
      'h5.md': 'five hops',
    });
    const r = await discoverClaudeMd(sb.fs, '/home/project');
    expect(r.files.map((f) => f.path.split('/').pop())).toEqual(['CLAUDE.md', 'h1.md', 'h2.md', 'h3.md', 'h4.md']);
    expect(r.text).toContain('four hops');
    expect(r.text).not.toContain('five hops');
    expect(r.problems).toEqual([
      expect.objectContaining({ kind: 'too_deep', path: '/home/project/h5.md', importedFrom: '/home/project/h4.md' }),
    ]);
  });

  it('reports a cycle once and a missing import, without throwing', async () => {
    const sb = await sandboxWith({
      'CLAUDE.md': 'a @a.md and @gone.md',
      'a.md': 'b @b.md',
      'b.md': 'back to @a.md and to @CLAUDE.md',
    });
    const r = await discoverClaudeMd(sb.fs, '/home/project');
    expect(r.files.map((f) => f.path)).toEqual(['/home/project/CLAUDE.md', '/home/project/a.md', '/home/project/b.md']);
    expect(r.problems.map((p) => [p.kind, p.path])).toEqual([
      ['cycle', '/home/project/a.md'],
      ['cycle', '/home/project/CLAUDE.md'],
      ['missing', '/home/project/gone.md'],
    ]);
    expect(r.problems[0]!.message).toContain('/home/project/CLAUDE.md → /home/project/a.md → /home/project/b.md → /home/project/a.md');
  });

  it('shows a file imported twice (a diamond) once, without calling it a cycle', async () => {
    const sb = await sandboxWith({ 'CLAUDE.md': '@x.md @y.md', 'x.md': '@z.md', 'y.md': '@z.md', 'z.md': 'zed' });
    const r = await discoverClaudeMd(sb.fs, '/home/project');
    expect(r.files.map((f) => f.path.split('/').pop())).toEqual(['CLAUDE.md', 'x.md', 'z.md', 'y.md']);
    expect(r.problems).toEqual([]);
  });

  it('ignores imports in code fences and inline code, and e-mail addresses', async () => {
    const sb = await sandboxWith({
      'CLAUDE.md': [
        'Real import: @real.md',
        '```ts',
        '@fenced.md',
        '```',
        '~~~',
        '@tilde.md',
        '~~~',
        'Run `npm i @scope/pkg` or ``@double.md``; mail me at me@example.com',
      ].join('\n'),
      'real.md': 'real',
    });
    const r = await discoverClaudeMd(sb.fs, '/home/project');
    expect(r.files.map((f) => f.path)).toEqual(['/home/project/CLAUDE.md', '/home/project/real.md']);
    expect(r.problems).toEqual([]);
  });

  it('parses import targets the way they are written', () => {
    expect(findImports('@a.md, @./b.md; (see @/abs/c.md). @~/d.md @my\\ file.md @@x @#tag')).toEqual([
      'a.md',
      './b.md',
      '/abs/c.md',
      '~/d.md',
      'my file.md',
    ]);
    expect(findImports('````md\n```\n@inside.md\n````\n@after.md')).toEqual(['after.md']);
  });

  it('reports an import of a directory and cuts an oversized file', async () => {
    const sb = await sandboxWith({ 'CLAUDE.md': `@docs\n${'x'.repeat(100)}`, 'docs/a.md': 'a' });
    const r = await discoverClaudeMd(sb.fs, '/home/project', { maxFileChars: 50 });
    expect(r.problems.map((p) => p.kind)).toEqual(['truncated', 'unreadable']);
    expect(r.files[0]!.tokens).toBe(13);
  });

  it('reads a scenario files map the same way before a sandbox exists', async () => {
    const files = { 'CLAUDE.md': '@docs/a.md', 'docs/a.md': 'from the map' };
    const r = await discoverClaudeMd(recordReader(files), '/home/project');
    expect(r.files.map((f) => f.path)).toEqual(['/home/project/CLAUDE.md', '/home/project/docs/a.md']);
    expect(r.text).toContain('from the map');
  });
});
