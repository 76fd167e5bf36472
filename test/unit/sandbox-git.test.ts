/**
 * The sandbox's `git` (isomorphic-git over the sandbox files) through the real just-bash
 * sandbox: each subcommand and the text it prints.
 */
import { describe, expect, it } from 'vitest';
import { HOME_DIR, WORKDIR } from '../../src/harness/ports.ts';
import type { Sandbox } from '../../src/harness/ports.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

async function repo(files: Record<string, string> = { 'a.txt': 'one\ntwo\nthree\n', 'src/b.js': 'x\n' }): Promise<Sandbox> {
  const sb = await createJustBashSandbox({ files, env: { GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'test@example.com' } });
  const r = await sb.exec('git init && git add . && git commit -m "initial"');
  expect(r.exitCode).toBe(0);
  return sb;
}

async function sh(sb: Sandbox, command: string) {
  return sb.exec(command, { timeoutMs: 20_000 });
}

describe('git init, add, commit, status', () => {
  it('init reports the repo; status outside a repo is fatal 128', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'a\n' } });
    const outside = await sh(sb, 'git status');
    expect([outside.exitCode, outside.stderr]).toEqual([128, 'fatal: not a git repository (or any of the parent directories): .git\n']);
    expect((await sh(sb, 'git init')).stdout).toBe(`Initialized empty Git repository in ${WORKDIR}/.git/\n`);
    expect((await sh(sb, 'git init')).stdout).toBe(`Reinitialized existing Git repository in ${WORKDIR}/.git/\n`);
    expect((await sh(sb, 'git status')).stdout).toBe(
      'On branch main\n\nNo commits yet\n\nUntracked files:\n  (use "git add <file>..." to include in what will be committed)\n\ta.txt\n\nnothing added to commit but untracked files present (use "git add" to track)\n',
    );
    expect((await sh(sb, 'git rev-parse --abbrev-ref HEAD')).stdout).toBe('main\n');
  });

  it('commit prints the summary line and stat; log shows it with the author from env', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' }, env: { GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'test@example.com' } });
    await sh(sb, 'git init');
    expect((await sh(sb, 'git add a.txt b.txt && git status --short')).stdout).toBe('A  a.txt\nA  b.txt\n');
    const c = await sh(sb, 'git commit -m "first commit"');
    expect(c.stdout).toMatch(/^\[main \(root-commit\) [0-9a-f]{7}\] first commit\n 2 files changed, 3 insertions\(\+\)\n create mode 100644 a\.txt\n create mode 100644 b\.txt\n$/);
    const log = await sh(sb, 'git log');
    expect(log.stdout).toMatch(/^commit [0-9a-f]{40}\nAuthor: Test Author <test@example\.com>\nDate: {3}\w{3} \w{3} \d+ \d\d:\d\d:\d\d \d{4} \+0000\n\n {4}first commit\n$/);
    const nothing = await sh(sb, 'git commit -m "again"');
    expect([nothing.exitCode, nothing.stdout]).toEqual([1, 'On branch main\nnothing to commit, working tree clean\n']);
    const noMessage = await sh(sb, 'git commit');
    expect(noMessage.stderr).toMatch(/no editor.*-m/);
  });

  it('status long and short forms name staged, unstaged, deleted and untracked files', async () => {
    const sb = await repo();
    await sh(sb, 'echo four >> a.txt; echo new > c.txt; rm src/b.js; echo staged > d.txt; git add d.txt');
    expect((await sh(sb, 'git status --short')).stdout).toBe(' M a.txt\nA  d.txt\n D src/b.js\n?? c.txt\n');
    expect((await sh(sb, 'git status --porcelain')).stdout).toBe(' M a.txt\nA  d.txt\n D src/b.js\n?? c.txt\n');
    expect((await sh(sb, 'git status')).stdout).toBe(
      [
        'On branch main',
        'Changes to be committed:',
        '  (use "git restore --staged <file>..." to unstage)',
        '\tnew file:   d.txt',
        '',
        'Changes not staged for commit:',
        '  (use "git add/rm <file>..." to update what will be committed)',
        '  (use "git restore <file>..." to discard changes in working directory)',
        '\tmodified:   a.txt',
        '\tdeleted:    src/b.js',
        '',
        'Untracked files:',
        '  (use "git add <file>..." to include in what will be committed)',
        '\tc.txt',
        '',
      ].join('\n'),
    );
    expect((await sh(sb, 'cd src && git status --short')).stdout).toBe(' M ../a.txt\nA  ../d.txt\n D b.js\n?? ../c.txt\n');
    await sh(sb, 'git add -A');
    expect((await sh(sb, 'git status -s')).stdout).toBe('M  a.txt\nA  c.txt\nA  d.txt\nD  src/b.js\n');
    const missing = await sh(sb, 'git add nope.txt');
    expect([missing.exitCode, missing.stderr]).toEqual([128, "fatal: pathspec 'nope.txt' did not match any files\n"]);
  });

  it('respects .gitignore', async () => {
    const sb = await repo({ '.gitignore': 'node_modules/\n*.log\n', 'a.txt': 'a\n' });
    await sh(sb, 'mkdir -p node_modules/x && echo 1 > node_modules/x/i.js && echo log > debug.log && echo b > b.txt');
    expect((await sh(sb, 'git status --short')).stdout).toBe('?? b.txt\n');
  });
});

describe('git diff', () => {
  it('working tree vs index, --cached, --stat and --name-only in unified format', async () => {
    const sb = await repo();
    await sh(sb, "printf 'one\\nTWO\\nthree\\n' > a.txt; echo new > c.txt");
    const d = await sh(sb, 'git diff');
    expect(d.stdout).toMatch(/^diff --git a\/a\.txt b\/a\.txt\nindex [0-9a-f]{7}\.\.[0-9a-f]{7} 100644\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,3 \+1,3 @@\n one\n-two\n\+TWO\n three\n$/);
    expect((await sh(sb, 'git diff --cached')).stdout).toBe('');
    await sh(sb, 'git add c.txt && git rm -q src/b.js');
    const cached = await sh(sb, 'git diff --cached');
    expect(cached.stdout).toMatch(/diff --git a\/c\.txt b\/c\.txt\nnew file mode 100644\nindex 0000000\.\.[0-9a-f]{7}\n--- \/dev\/null\n\+\+\+ b\/c\.txt\n@@ -0,0 \+1 @@\n\+new\n/);
    expect(cached.stdout).toMatch(/diff --git a\/src\/b\.js b\/src\/b\.js\ndeleted file mode 100644\nindex [0-9a-f]{7}\.\.0000000\n--- a\/src\/b\.js\n\+\+\+ \/dev\/null\n@@ -1 \+0,0 @@\n-x\n/);
    expect((await sh(sb, 'git diff --cached --stat')).stdout).toBe(' c.txt    | 1 +\n src/b.js | 1 -\n 2 files changed, 1 insertion(+), 1 deletion(-)\n'.replace(/\| 1/g, '|  1'));
    expect((await sh(sb, 'git diff --name-only')).stdout).toBe('a.txt\n');
    expect((await sh(sb, 'git diff HEAD --name-status')).stdout).toBe('M\ta.txt\nA\tc.txt\nD\tsrc/b.js\n');
    expect((await sh(sb, 'git diff -- src')).stdout).toBe('');
  });
});

describe('git log, show, branch, checkout, rev-parse, config, reset, restore', () => {
  it('log --oneline and -n; show prints the patch', async () => {
    const sb = await repo();
    await sh(sb, 'echo four >> a.txt && git commit -am "add four"');
    await sh(sb, 'echo five >> a.txt && git commit -a -m "add five"');
    const one = await sh(sb, 'git log --oneline');
    expect(one.stdout).toMatch(/^[0-9a-f]{7} add five\n[0-9a-f]{7} add four\n[0-9a-f]{7} initial\n$/);
    expect((await sh(sb, 'git log --oneline -n 1')).stdout).toMatch(/^[0-9a-f]{7} add five\n$/);
    expect((await sh(sb, 'git log -2 --oneline')).stdout.split('\n').length).toBe(3);
    const show = await sh(sb, 'git show');
    expect(show.stdout).toMatch(/^commit [0-9a-f]{40}\nAuthor: .*\nDate: .*\n\n {4}add five\n\ndiff --git a\/a\.txt b\/a\.txt\n[\s\S]*\+five\n$/);
  });

  it('branch list/create/delete, checkout -b, switch, checkout of a file', async () => {
    const sb = await repo();
    expect((await sh(sb, 'git branch feature && git branch')).stdout).toBe('  feature\n* main\n');
    const sw = await sh(sb, 'git checkout -b topic');
    expect([sw.exitCode, sw.stderr]).toEqual([0, "Switched to a new branch 'topic'\n"]);
    await sh(sb, 'echo topic > t.txt && git add t.txt && git commit -m "on topic"');
    const back = await sh(sb, 'git switch main');
    expect(back.stderr).toBe("Switched to branch 'main'\n");
    expect(await sb.fs.stat('t.txt')).toBeNull();
    await sh(sb, 'git checkout topic');
    expect(await sb.fs.readFile('t.txt')).toBe('topic\n');
    expect((await sh(sb, 'git branch --show-current')).stdout).toBe('topic\n');
    await sh(sb, 'echo broken > a.txt && git checkout -- a.txt');
    expect(await sb.fs.readFile('a.txt')).toBe('one\ntwo\nthree\n');
    expect((await sh(sb, 'git branch -d feature')).stdout).toMatch(/^Deleted branch feature \(was [0-9a-f]{7}\)\.\n$/);
    const self = await sh(sb, 'git branch -d topic');
    expect(self.exitCode).toBe(1);
    const none = await sh(sb, 'git checkout nowhere');
    expect([none.exitCode, none.stderr]).toEqual([1, "error: pathspec 'nowhere' did not match any file(s) known to git\n"]);
  });

  it('checkout <branch|commit> -- <file> takes the file from that branch or commit, into the index too', async () => {
    const sb = await repo();
    const first = (await sh(sb, 'git rev-parse --short HEAD')).stdout.trim();
    await sh(sb, 'git checkout -b topic && echo topic > a.txt && echo only-topic > t.txt && git commit -am "topic a" && git add t.txt && git commit -m "t"');
    await sh(sb, 'git switch main && echo main-edit > a.txt && git commit -am "main a"');
    const fromBranch = await sh(sb, 'git checkout topic -- a.txt t.txt');
    expect([fromBranch.exitCode, fromBranch.stderr]).toEqual([0, '']);
    expect(await sb.fs.readFile('a.txt')).toBe('topic\n');
    expect(await sb.fs.readFile('t.txt')).toBe('only-topic\n');
    // As in git: staged, and HEAD stays on main.
    expect((await sh(sb, 'git status --short')).stdout).toBe('M  a.txt\nA  t.txt\n');
    expect((await sh(sb, 'git branch --show-current')).stdout).toBe('main\n');
    // A commit (short id) works too, and so does the form without `--`.
    await sh(sb, `git checkout ${first} -- a.txt`);
    expect(await sb.fs.readFile('a.txt')).toBe('one\ntwo\nthree\n');
    await sh(sb, 'git checkout topic a.txt');
    expect(await sb.fs.readFile('a.txt')).toBe('topic\n');
    // Plain `checkout -- <file>` still restores what is staged.
    await sh(sb, 'echo broken > a.txt && git checkout -- a.txt');
    expect(await sb.fs.readFile('a.txt')).toBe('topic\n');
    const badRev = await sh(sb, 'git checkout nowhere -- a.txt');
    expect([badRev.exitCode, badRev.stderr]).toEqual([128, 'fatal: invalid reference: nowhere\n']);
    const badPath = await sh(sb, 'git checkout topic -- missing.txt');
    expect([badPath.exitCode, badPath.stderr]).toEqual([1, "error: pathspec 'missing.txt' did not match any file(s) known to git\n"]);
  });

  it('rev-parse HEAD, --short, --abbrev-ref, --show-toplevel', async () => {
    const sb = await repo();
    const full = (await sh(sb, 'git rev-parse HEAD')).stdout.trim();
    expect(full).toMatch(/^[0-9a-f]{40}$/);
    expect((await sh(sb, 'git rev-parse --short HEAD')).stdout).toBe(`${full.slice(0, 7)}\n`);
    expect((await sh(sb, 'git rev-parse --abbrev-ref HEAD')).stdout).toBe('main\n');
    expect((await sh(sb, 'cd src && git rev-parse --show-toplevel')).stdout).toBe(`${WORKDIR}\n`);
    expect((await sh(sb, 'git rev-parse nothing')).exitCode).toBe(128);
  });

  it('config sets the author of later commits; --global writes ~/.gitconfig', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'a\n' } });
    await sh(sb, 'git config --global user.email global@example.com');
    expect(await sb.fs.readFile(`${HOME_DIR}/.gitconfig`)).toBe('[user]\n\temail = global@example.com\n');
    await sh(sb, 'git init && git config user.name "Ada Lovelace" && git add a.txt && git commit -m one');
    expect((await sh(sb, 'git config user.name')).stdout).toBe('Ada Lovelace\n');
    expect((await sh(sb, 'git log')).stdout).toContain('Author: Ada Lovelace <global@example.com>\n');
    expect((await sh(sb, 'git config user.nothing')).exitCode).toBe(1);
  });

  it('restore --staged unstages, reset --hard discards, restore puts a file back', async () => {
    const sb = await repo();
    await sh(sb, 'echo change >> a.txt && git add a.txt && git restore --staged a.txt');
    expect((await sh(sb, 'git status -s')).stdout).toBe(' M a.txt\n');
    await sh(sb, 'git restore a.txt');
    expect((await sh(sb, 'git status -s')).stdout).toBe('');
    await sh(sb, 'echo x >> a.txt && echo n > n.txt && git add -A');
    const hard = await sh(sb, 'git reset --hard');
    expect(hard.stdout).toMatch(/^HEAD is now at [0-9a-f]{7} initial\n$/);
    expect((await sh(sb, 'git status -s')).stdout).toBe('');
    expect(await sb.fs.stat('n.txt')).toBeNull();
  });

  it('unsupported and network subcommands say what is missing', async () => {
    const sb = await repo();
    const push = await sh(sb, 'git push origin main');
    expect([push.exitCode, push.stderr]).toEqual([128, expect.stringMatching(/^fatal: 'git push' is not available in the sandbox: it is offline and has no remotes\./)]);
    const stash = await sh(sb, 'git stash');
    expect(stash.stderr).toMatch(/'git stash' is not supported by the sandbox's git/);
    const flag = await sh(sb, 'git log --graph');
    expect([flag.exitCode, flag.stderr]).toEqual([129, expect.stringMatching(/unknown option `--graph' for git log in the sandbox/)]);
    expect((await sh(sb, 'git frobnicate')).stderr).toMatch(/^git: 'frobnicate' is not a git command/);
  });
});
