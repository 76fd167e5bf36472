import { describe, expect, it } from 'vitest';
import { stripTerminalCodes, TerminalTextStream } from '../../src/sandbox/webcontainer/terminal-text.ts';
import { fromContainerPath, toContainerPath } from '../../src/sandbox/webcontainer/workdir-paths.ts';
import { WebContainerUnavailableError, withBootTimeout } from '../../src/sandbox/webcontainer/index.ts';
import { toFsError } from '../../src/sandbox/fs-errors.ts';

describe('stripTerminalCodes', () => {
  it('removes colours, cursor moves and OSC titles, and turns CRLF into LF', () => {
    const raw = '\x1b]0;jsh\x07\x1b[1;32mok\x1b[0m\r\n\x1b[2K\x1b[1Gnext line\r\n\x1b]633;A\x1b\\done';
    expect(stripTerminalCodes(raw)).toBe('ok\nnext line\ndone');
  });

  it('leaves plain text alone', () => {
    expect(stripTerminalCodes('a [b] ]c\n\ttab')).toBe('a [b] ]c\n\ttab');
  });
});

describe('TerminalTextStream', () => {
  it('holds back an escape sequence split across chunks', () => {
    const s = new TerminalTextStream();
    const parts = [s.push('red: \x1b[3'), s.push('1mX\x1b[0'), s.push('m end\r'), s.push('\nnext'), s.end()];
    expect(parts.join('')).toBe('red: X end\nnext');
    expect(parts[0]).toBe('red: ');
  });

  it('holds back an OSC sequence until its terminator arrives', () => {
    const s = new TerminalTextStream();
    expect(s.push('a\x1b]0;ti')).toBe('a');
    expect(s.push('tle\x07b')).toBe('b');
  });

  it('drops an escape that never finished', () => {
    const s = new TerminalTextStream();
    expect(s.push('x\x1b[')).toBe('x');
    expect(s.end()).toBe('');
  });
});

describe('workdir path translation', () => {
  it('turns absolute and relative paths into workdir-relative ones', () => {
    expect(toContainerPath('/home/project/src/a.ts')).toBe('src/a.ts');
    expect(toContainerPath('src/../lib/b.ts')).toBe('lib/b.ts');
    expect(toContainerPath('/home/project')).toBe('.');
    expect(toContainerPath('.')).toBe('.');
  });

  it('refuses paths outside the workdir', () => {
    expect(toContainerPath('/etc/passwd')).toBeNull();
    expect(toContainerPath('../escape.txt')).toBeNull();
    expect(toContainerPath('/home/projectile/x')).toBeNull();
  });

  it('maps back to absolute paths', () => {
    expect(fromContainerPath('src/a.ts')).toBe('/home/project/src/a.ts');
    expect(fromContainerPath('.')).toBe('/home/project');
  });
});

describe('withBootTimeout', () => {
  it('rejects a boot that never settles with a timeout reason', async () => {
    const never = new Promise<never>(() => {});
    const err = await withBootTimeout(never, 30).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebContainerUnavailableError);
    expect((err as WebContainerUnavailableError).reason).toBe('timeout');
    expect((err as Error).message).toBe('WebContainer did not boot within 30 ms (its servers are unreachable)');
  });

  it('passes a boot that settles in time through', async () => {
    await expect(withBootTimeout(Promise.resolve('booted'), 1000)).resolves.toBe('booted');
  });
});

describe('toFsError', () => {
  it('reads Node-style codes from the error or its message', () => {
    expect(toFsError(Object.assign(new Error('x'), { code: 'ENOENT' }), '/a').code).toBe('ENOENT');
    expect(toFsError(Object.assign(new Error('Path is a directory'), { code: 'ERR_FS_EISDIR' }), '/a').code).toBe('EISDIR');
    expect(toFsError(new Error("ENOTDIR: not a directory, scandir '/a'"), '/a').code).toBe('ENOTDIR');
    expect(toFsError(new Error('ERROR something odd'), '/a').code).toBe('EIO');
  });
});
