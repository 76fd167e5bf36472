import { describe, expect, it } from 'vitest';
import { toolsFixture } from './tools-fixture.ts';
import { readTool } from '../../src/harness/tools/index.ts';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';

describe('read tool', () => {
  it('returns cat -n numbered lines and records the read', async () => {
    const f = await toolsFixture({ 'src/a.ts': 'const a = 1;\n\tindented\n' });
    const text = await f.ok('read', { file_path: 'src/a.ts' });
    expect(text).toBe('     1\tconst a = 1;\n     2\t\tindented');
    expect(f.ctx.files.hasRead('/home/project/src/a.ts')).toBe(true);
    expect(f.ctx.files.lastSeen('/home/project/src/a.ts')).toBe('const a = 1;\n\tindented\n');
  });

  it('accepts absolute paths and paths with ./ and ..', async () => {
    const f = await toolsFixture({ 'src/a.ts': 'x\n' });
    expect(await f.ok('read', { file_path: '/home/project/src/a.ts' })).toBe('     1\tx');
    expect(await f.ok('read', { file_path: './lib/../src/a.ts' })).toBe('     1\tx');
  });

  it('reads 2,000 lines by default and says how to read on', async () => {
    const f = await toolsFixture({ 'big.txt': lines(2500) });
    const text = await f.ok('read', { file_path: 'big.txt' });
    const out = text.split('\n');
    expect(out).toHaveLength(2001);
    expect(out[1999]).toBe('  2000\tline 2000');
    expect(out[2000]).toBe('… 500 more lines; use offset 2001 to read on');
  });

  it('stops at whole lines within its size budget and says where to go on', async () => {
    const f = await toolsFixture({ 'wide.txt': lines(300, 'y'.repeat(1500)) });
    const r = await f.run('read', { file_path: 'wide.txt' });
    const out = r.outcome.content.split('\n');
    const shown = out.length - 1;
    expect(shown).toBeGreaterThan(50);
    expect(r.outcome.content.length).toBeLessThanOrEqual(101_000);
    expect(out[shown - 1]).toMatch(new RegExp(`^ +${shown}\ty+ ${shown}$`));
    expect(out[shown]).toBe(`… ${300 - shown} more lines (this read stopped at its size limit); use offset ${shown + 1} to read on`);
  });

  it('honours offset and limit', async () => {
    const f = await toolsFixture({ 'big.txt': lines(10) });
    expect(await f.ok('read', { file_path: 'big.txt', offset: 4, limit: 2 })).toBe(
      '     4\tline 4\n     5\tline 5\n… 5 more lines; use offset 6 to read on',
    );
    expect(await f.ok('read', { file_path: 'big.txt', offset: 9 })).toBe('     9\tline 9\n    10\tline 10');
  });

  it('errors on an offset past the end, naming the line count', async () => {
    const f = await toolsFixture({ 'small.txt': lines(3) });
    expect(await f.err('read', { file_path: 'small.txt', offset: 7 })).toMatch(/has 3 lines; offset 7 is past its end/);
  });

  it('cuts lines over 2,000 characters with a marker', async () => {
    const f = await toolsFixture({ 'min.js': 'x'.repeat(2500) + '\nshort\n' });
    const text = await f.ok('read', { file_path: 'min.js' });
    const [first, second] = text.split('\n');
    expect(first).toBe(`     1\t${'x'.repeat(2000)}… [line cut: 500 more characters]`);
    expect(second).toBe('     2\tshort');
  });

  it('notes an empty file', async () => {
    const f = await toolsFixture({ 'empty.txt': '' });
    const r = await f.run('read', { file_path: 'empty.txt' });
    expect(r.outcome.isError).toBeFalsy();
    expect(r.outcome.content).toMatch(/exists but is empty/);
    expect(f.ctx.files.hasRead('/home/project/empty.txt')).toBe(true);
  });

  it('errors for a missing file, suggesting glob and a similar name', async () => {
    const f = await toolsFixture({ 'src/app.ts': 'x' });
    const text = await f.err('read', { file_path: 'src/app.js' });
    expect(text).toContain('File does not exist: /home/project/src/app.js.');
    expect(text).toContain('Did you mean src/app.ts?');
    expect(text).toContain('Use glob');
    expect(await f.err('read', { file_path: 'nowhere/x.txt' })).toMatch(/does not exist.*Use glob \(e\.g\. pattern "\*\*\/x\.txt"\)/);
  });

  it('errors for a directory, suggesting ls or glob', async () => {
    const f = await toolsFixture({ 'src/a.ts': 'x' });
    expect(await f.err('read', { file_path: 'src' })).toMatch(/is a directory, not a file\. Use bash \(ls src\) or glob/);
  });

  it('refuses binary content', async () => {
    const f = await toolsFixture({ 'img.bin': 'PNG\u0000\u0001\u0002' });
    expect(await f.err('read', { file_path: 'img.bin' })).toMatch(/binary/);
    expect(f.ctx.files.hasRead('/home/project/img.bin')).toBe(false);
  });

  it('shows CRLF files without the carriage returns', async () => {
    const f = await toolsFixture({ 'w.txt': 'a\r\nb\r\n' });
    expect(await f.ok('read', { file_path: 'w.txt' })).toBe('     1\ta\n     2\tb');
  });

  it('rejects bad input readably', async () => {
    const f = await toolsFixture();
    const r = await f.run('read', { file_path: 'a', offset: 0, limit: 'ten' });
    expect(r.validation.ok).toBe(false);
    expect(r.outcome.content).toContain('- offset: must be at least 1; got number 0.');
    expect(r.outcome.content).toContain('- limit: expected number, got the string "ten".');
  });

  it('is read-only and concurrency-safe', () => {
    const t = readTool();
    expect(t.isReadOnly({ file_path: 'a' })).toBe(true);
    expect(t.isConcurrencySafe({ file_path: 'a' })).toBe(true);
    expect(t.isDestructive({ file_path: 'a' })).toBe(false);
  });
});
