import { describe, expect, it } from 'vitest';
import { toolsFixture } from './tools-fixture.ts';
import { editTool, writeTool } from '../../src/harness/tools/index.ts';
import { notFoundHint, similarity } from '../../src/harness/tools/edit-match.ts';

const P = '/home/project';

describe('write tool', () => {
  it('creates a new file (and parents) without a prior read, with a snapshot of null', async () => {
    const f = await toolsFixture();
    const r = await f.run('write', { file_path: 'src/new/a.ts', content: 'one\ntwo\n' });
    expect(r.outcome).toEqual({ content: `Created ${P}/src/new/a.ts (2 lines).` });
    expect(await f.file('src/new/a.ts')).toBe('one\ntwo\n');
    expect(f.ctx.files.lastSeen(`${P}/src/new/a.ts`)).toBe('one\ntwo\n');
    expect(f.ctx.files.snapshotCount()).toBe(1);
    expect(f.ctx.files.popSnapshot()).toEqual({ path: `${P}/src/new/a.ts`, previous: null, toolUseId: 'toolu_0001' });
  });

  it('refuses to overwrite a file the agent has not read, telling it to read first', async () => {
    const f = await toolsFixture({ 'a.txt': 'old\n' });
    const r = await f.run('write', { file_path: 'a.txt', content: 'new\n' });
    expect(r.validation).toEqual({ ok: false, error: r.outcome.content });
    expect(r.outcome.isError).toBe(true);
    expect(r.outcome.content).toMatch(/already exists and you have not read it\. Read it first with the read tool/);
    expect(await f.file('a.txt')).toBe('old\n');
    expect(f.ctx.files.snapshotCount()).toBe(0);
  });

  it('overwrites after a read, keeping the previous content as a snapshot', async () => {
    const f = await toolsFixture({ 'a.txt': 'old\n' });
    await f.ok('read', { file_path: 'a.txt' });
    expect(await f.ok('write', { file_path: 'a.txt', content: 'new\n' })).toBe(`Overwrote ${P}/a.txt (1 line).`);
    expect(await f.file('a.txt')).toBe('new\n');
    expect(f.ctx.files.popSnapshot(`${P}/a.txt`)).toEqual({ path: `${P}/a.txt`, previous: 'old\n', toolUseId: 'toolu_0002' });
  });

  it('refuses when the file changed since it was read', async () => {
    const f = await toolsFixture({ 'a.txt': 'old\n' });
    await f.ok('read', { file_path: 'a.txt' });
    await f.ok('bash', { command: 'echo changed > a.txt' });
    expect(await f.err('write', { file_path: 'a.txt', content: 'new\n' })).toMatch(/has changed since you last read it.*Read it again/);
    expect(await f.file('a.txt')).toBe('changed\n');
  });

  it('refuses a directory', async () => {
    const f = await toolsFixture({ 'src/a.ts': 'x' });
    expect(await f.err('write', { file_path: 'src', content: 'x' })).toMatch(/is a directory/);
  });

  it('is destructive only when overwriting a file the agent knows', async () => {
    const f = await toolsFixture({ 'a.txt': 'old\n' });
    const t = writeTool();
    expect(t.isDestructive({ file_path: 'a.txt', content: '' }, f.ctx)).toBe(false);
    await f.ok('read', { file_path: 'a.txt' });
    expect(t.isDestructive({ file_path: 'a.txt', content: '' }, f.ctx)).toBe(true);
    expect(t.isDestructive({ file_path: 'a.txt', content: '' })).toBe(true); // no context: assume the worse
    expect(t.isReadOnly({ file_path: 'a.txt', content: '' })).toBe(false);
  });
});

describe('edit tool', () => {
  const src = 'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';

  it('replaces a unique string and shows the edited region with line numbers', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    const text = await f.ok('edit', { file_path: 'm.js', old_string: '  return a - b;', new_string: '  // subtract\n  return a - b;' });
    expect(await f.file('m.js')).toBe(src.replace('  return a - b;', '  // subtract\n  return a - b;'));
    expect(text).toBe(
      [`Edited ${P}/m.js:`, '     3\t}', '     4\t', '     5\tfunction sub(a, b) {', '     6\t  // subtract', '     7\t  return a - b;', '     8\t}'].join('\n'),
    );
    expect(f.ctx.files.lastSeen(`${P}/m.js`)).toBe(await f.file('m.js'));
    expect(f.ctx.files.popSnapshot()).toEqual({ path: `${P}/m.js`, previous: src, toolUseId: 'toolu_0002' });
  });

  it('inserts replacement text literally ($& and $1 are not patterns)', async () => {
    const f = await toolsFixture({ 'p.js': 'const price = 0;\n' });
    await f.ok('read', { file_path: 'p.js' });
    await f.ok('edit', { file_path: 'p.js', old_string: '0', new_string: '"$&$1$$"' });
    expect(await f.file('p.js')).toBe('const price = "$&$1$$";\n');
  });

  it('requires a prior read', async () => {
    const f = await toolsFixture({ 'm.js': src });
    const r = await f.run('edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' });
    expect(r.validation.ok).toBe(false);
    expect(r.outcome.content).toMatch(/You have not read .*m\.js yet\. Read it first/);
    expect(await f.file('m.js')).toBe(src);
  });

  it('asks for a new read when the file changed behind the agent', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    await f.ok('bash', { command: 'echo "// header" >> m.js' });
    expect(await f.err('edit', { file_path: 'm.js', old_string: 'add', new_string: 'plus' })).toMatch(
      /has changed since you last read it.*Read it again/,
    );
    // Reading again makes the edit possible.
    await f.ok('read', { file_path: 'm.js' });
    await f.ok('edit', { file_path: 'm.js', old_string: 'function add', new_string: 'function plus' });
    expect(await f.file('m.js')).toContain('function plus(a, b)');
  });

  it('says when old_string is missing, hinting at the closest line', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    const text = await f.err('edit', { file_path: 'm.js', old_string: 'function subtract(a, b) {', new_string: 'x' });
    expect(text).toBe(`old_string was not found in ${P}/m.js. The closest line is 5: "function sub(a, b) {".`);
  });

  it('says when only whitespace differs', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    const text = await f.err('edit', { file_path: 'm.js', old_string: 'return  a + b;\n  }', new_string: 'x' });
    expect(text).toMatch(/not found.*whitespace or indentation differs/);
    expect(notFoundHint(src, 'zzzz qqqq')).toBe('');
    expect(similarity('abc', 'abc')).toBe(1);
  });

  it('refuses an ambiguous old_string, saying how many and where', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    const text = await f.err('edit', { file_path: 'm.js', old_string: '(a, b) {', new_string: '(x, y) {' });
    expect(text).toMatch(/occurs 2 times in .*m\.js \(lines 1, 5\)\. Include more surrounding lines.*replace_all/);
  });

  it('replaces every occurrence with replace_all', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    const text = await f.ok('edit', { file_path: 'm.js', old_string: 'a, b', new_string: 'x, y', replace_all: true });
    expect(text.split('\n')[0]).toBe(`Replaced 2 occurrences in ${P}/m.js (first one shown):`);
    expect(await f.file('m.js')).toBe(src.replaceAll('a, b', 'x, y'));
  });

  it('refuses identical strings, an empty old_string and a missing file', async () => {
    const f = await toolsFixture({ 'm.js': src });
    await f.ok('read', { file_path: 'm.js' });
    expect(await f.err('edit', { file_path: 'm.js', old_string: 'add', new_string: 'add' })).toMatch(/identical/);
    expect(await f.err('edit', { file_path: 'm.js', old_string: '', new_string: 'x' })).toMatch(/old_string is empty.*use write/);
    expect(await f.err('edit', { file_path: 'nope.js', old_string: 'a', new_string: 'b' })).toMatch(/does not exist.*use write to create/);
  });

  it('keeps CRLF line endings when the model writes \\n', async () => {
    const f = await toolsFixture({ 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
    await f.ok('read', { file_path: 'w.txt' });
    await f.ok('edit', { file_path: 'w.txt', old_string: 'one\ntwo', new_string: 'ONE\nTWO' });
    expect(await f.file('w.txt')).toBe('ONE\r\nTWO\r\nthree\r\n');
  });

  it('declares itself a writing, serial, non-destructive tool', () => {
    const t = editTool();
    const input = { file_path: 'a', old_string: 'a', new_string: 'b' };
    expect([t.isReadOnly(input), t.isConcurrencySafe(input), t.isDestructive(input)]).toEqual([false, false, false]);
  });
});

describe('revert tool', () => {
  it('undoes an edit, then a write that created a file, newest first', async () => {
    const f = await toolsFixture({ 'a.txt': 'v1\n' });
    await f.ok('read', { file_path: 'a.txt' });
    await f.ok('edit', { file_path: 'a.txt', old_string: 'v1', new_string: 'v2' });
    await f.ok('write', { file_path: 'b.txt', content: 'created\n' });

    expect(await f.ok('revert', {})).toBe(`Reverted ${P}/b.txt: deleted it (it was created by tool call toolu_0003).`);
    expect(await f.sandbox.fs.stat(`${P}/b.txt`)).toBeNull();
    expect(f.ctx.files.hasRead(`${P}/b.txt`)).toBe(false);

    expect(await f.ok('revert', {})).toBe(`Reverted ${P}/a.txt to its content before tool call toolu_0002 (1 line).`);
    expect(await f.file('a.txt')).toBe('v1\n');
    // The agent has now seen v1, so it can edit again without another read.
    await f.ok('edit', { file_path: 'a.txt', old_string: 'v1', new_string: 'v3' });
    expect(await f.file('a.txt')).toBe('v3\n');
  });

  it('reverts the newest change to the named file only', async () => {
    const f = await toolsFixture({ 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    await f.ok('read', { file_path: 'a.txt' });
    await f.ok('read', { file_path: 'b.txt' });
    await f.ok('write', { file_path: 'a.txt', content: 'a2\n' });
    await f.ok('write', { file_path: 'b.txt', content: 'b2\n' });
    await f.ok('revert', { file_path: 'a.txt' });
    expect(await f.file('a.txt')).toBe('a1\n');
    expect(await f.file('b.txt')).toBe('b2\n');
    expect(await f.err('revert', { file_path: 'a.txt' })).toMatch(/nothing to revert for .*a\.txt/);
    expect(f.ctx.files.snapshotCount()).toBe(1);
  });

  it('errors when there is nothing to revert', async () => {
    const f = await toolsFixture();
    const r = await f.run('revert', {});
    expect(r.validation.ok).toBe(false);
    expect(r.outcome.content).toMatch(/nothing to revert: you have not changed any file/);
  });

  it('warns when later changes are discarded too', async () => {
    const f = await toolsFixture();
    await f.ok('write', { file_path: 'c.txt', content: 'mine\n' });
    await f.ok('bash', { command: 'echo theirs >> c.txt' });
    expect(await f.ok('revert', { file_path: 'c.txt' })).toMatch(/deleted it .*those changes were discarded too/);
  });
});
