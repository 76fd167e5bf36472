/**
 * The page's view of a just-bash sandbox that is still starting (`src/sandbox/boot-view.ts`): every
 * answer it gives is the one a real sandbox started from the same files gives, path by path, and
 * it gives them where the run's start-up reads land (so the first Step does not wait for the worker).
 */
import { describe, expect, it } from 'vitest';
import { HOME_DIR, SandboxFsError, WORKDIR } from '../../src/harness/ports.ts';
import type { Sandbox } from '../../src/harness/ports.ts';
import { BootView, JUST_BASH_ROOT_DIRS } from '../../src/sandbox/boot-view.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const MTIME = 1_700_000_000_123;

const FILES: Record<string, string> = {
  'README.md': '# demo\n',
  'src/main.ts': 'export const greeting = "héllo ✓ 🎉";\n',
  '.claude/settings.json': '{ "permissions": { "allow": ["Bash(ls)"] } }\n',
  '.claude/rules/style.md': 'Use tabs.\n',
  'CLAUDE.md': 'Project notes.\n',
  'deep/a/b/c.txt': '',
  'broken-utf16.txt': 'x\uD800y',
  [`${HOME_DIR}/.claude/CLAUDE.md`]: 'My own notes.\n',
};
const DIRS = ['empty/folder'];

/** What the sandbox answered: a value or an error's code and words. */
async function outcome(sb: Sandbox, op: 'stat' | 'list' | 'readFile', path: string): Promise<unknown> {
  try {
    return { value: await sb.fs[op](path) };
  } catch (err) {
    return { error: err instanceof SandboxFsError ? `${err.code} ${err.message}` : String(err) };
  }
}

function viewOutcome(view: BootView, op: string, path: string): unknown {
  const a = view.answer(op, [path]);
  if (!a) return undefined;
  return 'error' in a ? { error: `${a.error.code} ${a.error.message}` } : { value: a.value };
}

/** Every path in `sb` (its whole tree, /proc and /dev included). */
async function allPaths(sb: Sandbox): Promise<string[]> {
  const out: string[] = [];
  const pending = ['/'];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    out.push(dir);
    for (const e of await sb.fs.list(dir)) {
      const path = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
      if (e.kind === 'dir') pending.push(path);
      else out.push(path);
    }
  }
  return out;
}

describe('boot view', () => {
  it("knows just-bash's root: the directories a new sandbox has at / and in /home", async () => {
    const sb = await createJustBashSandbox({});
    expect((await sb.fs.list('/')).map((e) => e.name)).toEqual([...JUST_BASH_ROOT_DIRS]);
    expect((await sb.fs.list('/home')).map((e) => e.name)).toEqual([HOME_DIR, WORKDIR].map((p) => p.slice('/home/'.length)).sort());
  });

  it('answers exactly as a sandbox started from the same files does, and only where that is certain', async () => {
    const sb = await createJustBashSandbox({ files: FILES, dirs: DIRS, mtimeMs: MTIME });
    const view = new BootView(FILES, DIRS, MTIME);
    expect(view.usable).toBe(true);
    const existing = await allPaths(sb);
    const probes = [
      ...existing,
      ...existing.flatMap((p) => [`${p}/missing`, `${p}/missing/deeper`]),
      // Where the run's start-up reads go (claude-md.ts, settings, commands, skills, agents).
      '/CLAUDE.md', '/.claude/CLAUDE.md', '/CLAUDE.local.md', '/home/CLAUDE.md', '/home/.claude/CLAUDE.md', '/home/CLAUDE.local.md',
      `${WORKDIR}/CLAUDE.local.md`, `${WORKDIR}/.claude/settings.local.json`, `${HOME_DIR}/.claude/commands`, `${WORKDIR}/.mcp.json`,
      // Relative paths, dots, a file used as a folder, and places just-bash keeps for itself.
      'src/main.ts', './CLAUDE.md', 'src/../README.md', '../user/.claude/CLAUDE.md', 'README.md/x', 'src/main.ts/x/y',
      '/etc/passwd', '/tmp/x', '/home', '/', '/bin/ls', '/dev/null', '/proc/self', '/usr/bin',
    ];
    let answered = 0;
    for (const path of probes) {
      for (const op of ['stat', 'list', 'readFile'] as const) {
        const fromView = viewOutcome(view, op, path);
        if (fromView === undefined) continue;
        answered++;
        expect(fromView, `${op} ${path}`).toEqual(await outcome(sb, op, path));
      }
    }
    // Nothing in just-bash's own folders is guessed; the start-up reads all are answered.
    for (const path of ['/', '/home', '/bin/ls', '/dev/null', '/proc/self', '/usr/bin']) expect(view.answer('stat', [path]), path).toBeUndefined();
    for (const path of ['/CLAUDE.md', '/home/.claude/CLAUDE.md', `${WORKDIR}/.claude/settings.json`, `${HOME_DIR}/.claude/CLAUDE.md`]) expect(view.answer('stat', [path]), path).toBeDefined();
    expect(answered).toBeGreaterThan(200);
    expect(view.answer('realpath', [`${WORKDIR}/README.md`])).toBeUndefined();
  });

  it('gives the files one modification time, which the sandbox reports too', async () => {
    const sb = await createJustBashSandbox({ files: FILES, dirs: DIRS, mtimeMs: MTIME });
    for (const path of [WORKDIR, HOME_DIR, `${WORKDIR}/src`, `${WORKDIR}/src/main.ts`, `${WORKDIR}/empty/folder`, `${HOME_DIR}/.claude/CLAUDE.md`]) {
      expect((await sb.fs.stat(path))?.mtimeMs, path).toBe(MTIME);
    }
    // The size is the UTF-8 length, not the string's.
    expect((await sb.fs.stat('src/main.ts'))?.size).toBe(new TextEncoder().encode(FILES['src/main.ts']).length);
  });

  it('answers nothing when a start file lies outside the project and home, or a file is also a folder', () => {
    expect(new BootView({ '/etc/conf': 'x' }, [], MTIME).usable).toBe(false);
    expect(new BootView({ '../../tmp/x': 'x' }, [], MTIME).answer('stat', ['/CLAUDE.md'])).toBeUndefined();
    expect(new BootView({ a: '1', 'a/b': '2' }, [], MTIME).usable).toBe(false);
    expect(new BootView({ a: '1' }, ['a/b'], MTIME).usable).toBe(false);
    expect(new BootView({ a: '1' }, [], MTIME).usable).toBe(true);
  });
});
