import { describe, expect, it } from 'vitest';
import { toolsFixture } from './tools-fixture.ts';
import { compileGlob, splitGlobBase } from '../../src/harness/tools/glob-match.ts';
import { globTool, grepTool } from '../../src/harness/tools/index.ts';

describe('glob matching', () => {
  const cases: [string, string, boolean][] = [
    ['*.ts', 'a.ts', true],
    ['*.ts', 'src/a.ts', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'src/deep/a.ts', true],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['src/**', 'src/x/y.txt', true],
    ['*.{js,jsx}', 'a.jsx', true],
    ['*.{js,jsx}', 'a.ts', false],
    ['{src,lib}/**/*.{ts,svelte}', 'lib/ui/App.svelte', true],
    ['file?.txt', 'file1.txt', true],
    ['file?.txt', 'file10.txt', false],
    ['[abc].md', 'b.md', true],
    ['[!abc].md', 'b.md', false],
    ['[!abc].md', 'd.md', true],
    ['a.ts', 'aXts', false], // the dot is literal
    ['\\*.txt', '*.txt', true],
    ['**/.env*', 'config/.env.local', true],
    ['{a}.txt', '{a}.txt', true], // a single alternative is literal, as in bash
  ];
  for (const [pattern, path, expected] of cases) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${path}`, () => {
      expect(compileGlob(pattern)(path)).toBe(expected);
    });
  }

  it('splits an absolute pattern into a base and the rest', () => {
    expect(splitGlobBase('/home/project/src/**/*.ts')).toEqual({ base: '/home/project/src', pattern: '**/*.ts' });
    expect(splitGlobBase('/home/project/a.txt')).toEqual({ base: '/home/project', pattern: 'a.txt' });
  });
});

async function project() {
  const f = await toolsFixture({
    'src/app.ts': 'import { util } from "./util";\nexport function main() {\n  return util(1);\n}\n',
    'src/util.ts': 'export function util(n: number) {\n  // TODO: validate\n  return n + 1;\n}\n',
    'src/ui/App.svelte': '<script>\n  let count = 0; // todo later\n</script>\n',
    'README.md': '# Demo\nA TODO list.\n',
    'node_modules/dep/index.js': 'export const TODO = 1;\n',
    '.git/HEAD': 'ref: refs/heads/main TODO\n',
    'bin/blob.dat': 'TODO\u0000\u0001binary',
  });
  // Distinct modification times, oldest first: README, app, util, App.svelte.
  await f.ok('bash', {
    command:
      'touch -d "2024-01-01 00:00:00" README.md && touch -d "2024-02-01 00:00:00" src/app.ts && touch -d "2024-03-01 00:00:00" src/util.ts && touch -d "2024-04-01 00:00:00" src/ui/App.svelte',
  });
  return f;
}

describe('glob tool', () => {
  it('lists matches newest first, relative to the working directory', async () => {
    const f = await project();
    expect(await f.ok('glob', { pattern: '**/*.ts' })).toBe('src/util.ts\nsrc/app.ts');
    expect(await f.ok('glob', { pattern: '**/*' })).toBe('bin/blob.dat\nsrc/ui/App.svelte\nsrc/util.ts\nsrc/app.ts\nREADME.md');
  });

  it('searches under path, and accepts an absolute pattern', async () => {
    const f = await project();
    expect(await f.ok('glob', { pattern: '*.ts', path: 'src' })).toBe('src/util.ts\nsrc/app.ts');
    expect(await f.ok('glob', { pattern: '/home/project/src/**/*.svelte' })).toBe('src/ui/App.svelte');
  });

  it('skips node_modules and .git unless the pattern names them', async () => {
    const f = await project();
    expect(await f.ok('glob', { pattern: '**/*.js' })).toBe('No files match "**/*.js" in /home/project.');
    expect(await f.ok('glob', { pattern: 'node_modules/**/*.js' })).toBe('node_modules/dep/index.js');
  });

  it('caps the list at 100 with a note', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 130; i++) files[`gen/f${String(i).padStart(3, '0')}.txt`] = 'x';
    const f = await toolsFixture(files);
    const out = (await f.ok('glob', { pattern: 'gen/*.txt' })).split('\n');
    expect(out).toHaveLength(101);
    expect(out[100]).toMatch(/Showing the 100 most recently modified of 130 matches/);
  });

  it('errors for a missing or non-directory path', async () => {
    const f = await project();
    expect(await f.err('glob', { pattern: '*', path: 'nope' })).toMatch(/Directory does not exist: \/home\/project\/nope/);
    expect(await f.err('glob', { pattern: '*', path: 'README.md' })).toMatch(/is a file, not a directory/);
  });

  it('is read-only and concurrency-safe', () => {
    const t = globTool();
    expect([t.isReadOnly({ pattern: '*' }), t.isConcurrencySafe({ pattern: '*' })]).toEqual([true, true]);
  });
});

describe('grep tool', () => {
  it('lists files with matches by default, newest first, skipping binaries, node_modules and .git', async () => {
    const f = await project();
    const text = await f.ok('grep', { pattern: 'TODO' });
    expect(text).toBe('Found 2 files\nsrc/util.ts\nREADME.md');
    expect(await f.ok('grep', { pattern: 'binary' })).toBe('No matches for "binary" in /home/project.\n(1 binary or very large file was skipped.)');
  });

  it('is case-insensitive with -i', async () => {
    const f = await project();
    expect(await f.ok('grep', { pattern: 'todo', '-i': true, glob: '*.{ts,svelte}' })).toBe('Found 2 files\nsrc/ui/App.svelte\nsrc/util.ts');
  });

  it('shows matching lines with numbers in content mode', async () => {
    const f = await project();
    expect(await f.ok('grep', { pattern: 'util\\(', output_mode: 'content' })).toBe('src/app.ts:3:  return util(1);\nsrc/util.ts:1:export function util(n: number) {');
    expect(await f.ok('grep', { pattern: 'util\\(', output_mode: 'content', '-n': false, path: 'src/app.ts' })).toBe('src/app.ts:  return util(1);');
  });

  it('adds context lines with -A/-B/-C, separating groups', async () => {
    const f = await project();
    expect(await f.ok('grep', { pattern: 'TODO', output_mode: 'content', '-C': 1, path: 'src' })).toBe(
      'src/util.ts-1-export function util(n: number) {\nsrc/util.ts:2:  // TODO: validate\nsrc/util.ts-3-  return n + 1;',
    );
    expect(await f.ok('grep', { pattern: 'function', output_mode: 'content', '-A': 1, glob: 'src/*.ts' })).toBe(
      [
        'src/app.ts:2:export function main() {',
        'src/app.ts-3-  return util(1);',
        '--',
        'src/util.ts:1:export function util(n: number) {',
        'src/util.ts-2-  // TODO: validate',
      ].join('\n'),
    );
  });

  it('counts matches per file', async () => {
    const f = await project();
    expect(await f.ok('grep', { pattern: 'util', output_mode: 'count', path: 'src' })).toBe(
      'Found 4 matches in 2 files\nsrc/app.ts:3\nsrc/util.ts:1',
    );
  });

  it('matches across lines with multiline', async () => {
    const f = await project();
    expect(await f.ok('grep', { pattern: 'main\\(\\) \\{\\n\\s+return', output_mode: 'content' })).toMatch(/^No matches for .* in \/home\/project\.\n/);
    expect(await f.ok('grep', { pattern: 'main\\(\\).*?util', multiline: true, output_mode: 'content' })).toBe(
      'src/app.ts:2:export function main() {\nsrc/app.ts:3:  return util(1);',
    );
  });

  it('limits output with head_limit and says so', async () => {
    const f = await project();
    const text = await f.ok('grep', { pattern: '.', output_mode: 'content', path: 'src/util.ts', head_limit: 2 });
    expect(text).toBe(
      'src/util.ts:1:export function util(n: number) {\nsrc/util.ts:2:  // TODO: validate\n(Showing the first 2 of 4 lines; raise head_limit or narrow the search for more.)',
    );
  });

  it('reports an invalid regex as a validation error naming the problem', async () => {
    const f = await project();
    const r = await f.run('grep', { pattern: 'foo(' });
    expect(r.validation.ok).toBe(false);
    expect(r.outcome.isError).toBe(true);
    expect(r.outcome.content).toMatch(/^Invalid regular expression "foo\(": .*[Uu]nterminated group.*escape special characters/);
  });

  it('errors for a missing path and an invalid output_mode', async () => {
    const f = await project();
    expect(await f.err('grep', { pattern: 'x', path: 'nope' })).toMatch(/Path does not exist: \/home\/project\/nope/);
    expect(await f.err('grep', { pattern: 'x', output_mode: 'lines' })).toContain(
      '- output_mode: must be one of "content", "files_with_matches", "count"; got the string "lines".',
    );
  });

  it('is read-only and concurrency-safe', () => {
    const t = grepTool();
    expect([t.isReadOnly({ pattern: 'x' }), t.isConcurrencySafe({ pattern: 'x' })]).toEqual([true, true]);
  });
});
