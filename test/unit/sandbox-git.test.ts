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

  it('-q / --quiet: init, checkout, switch, rm, reset, restore and merge say nothing on success, as git does; a failure still speaks', async () => {
    const sb = await createJustBashSandbox({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' }, env: { GIT_AUTHOR_NAME: 'Test Author', GIT_AUTHOR_EMAIL: 'test@example.com' } });
    const quiet = async (command: string) => {
      const r = await sh(sb, command);
      expect([command, r.exitCode, r.stdout, r.stderr]).toEqual([command, 0, '', '']);
    };
    await quiet('git init -q');
    await quiet('git init --quiet');
    await sh(sb, 'git add . && git commit -q -m first');
    await quiet('git checkout -q -b feature');
    await quiet('git switch --quiet main');
    await quiet('git rm -q b.txt');
    await quiet('git reset -q');
    expect((await sh(sb, 'git status --short')).stdout).toBe(' D b.txt\n');
    await quiet('git restore -q b.txt');
    await sh(sb, 'git switch -q feature && echo more >> a.txt && git commit -q -am second && git switch -q main');
    await quiet('git merge -q feature');
    expect((await sh(sb, 'git log --oneline')).stdout.split('\n').filter(Boolean)).toHaveLength(2);
    // Without -q the same commands speak; with it, a failure keeps its message and exit code.
    expect((await sh(sb, 'git checkout -b other')).stderr).toBe("Switched to a new branch 'other'\n");
    const missing = await sh(sb, 'git checkout -q no-such-branch');
    expect(missing.exitCode).not.toBe(0);
    expect(missing.stderr).toMatch(/no-such-branch/);
    // After `--`, `-q` is a path, not the flag; and rm with no path at all is an error, as in git.
    const dashQ = await sh(sb, 'git rm -- -q');
    expect([dashQ.exitCode, dashQ.stderr]).toEqual([128, "fatal: pathspec '-q' did not match any files\n"]);
    expect((await sh(sb, 'git rm -q')).stderr).toBe('fatal: No pathspec was given. Which files should I remove?\n');
    expect((await sh(sb, 'git restore -- --staged')).stderr).toBe("error: pathspec '--staged' did not match any file(s) known to git\n");
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

  it('a mixed reset unstages a staged deletion too, and lists what differs from the index, as git does', async () => {
    const sb = await repo();
    await sh(sb, 'echo more >> a.txt && git add a.txt && git rm -q src/b.js');
    expect((await sh(sb, 'git status -s')).stdout).toBe('M  a.txt\nD  src/b.js\n');
    const reset = await sh(sb, 'git reset');
    expect([reset.exitCode, reset.stdout]).toEqual([0, 'Unstaged changes after reset:\nM\ta.txt\nD\tsrc/b.js\n']);
    expect((await sh(sb, 'git status -s')).stdout).toBe(' M a.txt\n D src/b.js\n');
    // Nothing staged and nothing changed: a reset prints nothing.
    await sh(sb, 'git restore a.txt src/b.js');
    expect((await sh(sb, 'git reset')).stdout).toBe('');
    // restore --staged takes a staged deletion back the same way.
    await sh(sb, 'git rm -q a.txt && git restore --staged a.txt');
    expect((await sh(sb, 'git status -s')).stdout).toBe(' D a.txt\n');
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

describe('git worktree and a merge in progress', () => {
  const WT = '/.ws/a/home/project';

  it('worktree add makes a branch checked out in a linked worktree; git works inside it; list shows both', async () => {
    const sb = await repo();
    const add = await sh(sb, `git worktree add -b agent/a ${WT}`);
    expect([add.exitCode, add.stderr]).toEqual([0, "Preparing worktree (new branch 'agent/a')\n"]);
    expect(add.stdout).toMatch(/^HEAD is now at [0-9a-f]{7} initial\n$/);
    expect((await sb.fs.readFile(`${WT}/.git`)).trim()).toBe(`gitdir: ${WORKDIR}/.git/worktrees/project`);
    expect(await sb.fs.readFile(`${WT}/a.txt`)).toBe('one\ntwo\nthree\n');
    const inside = (c: string) => sb.exec(c, { cwd: WT, timeoutMs: 20_000 });
    expect((await inside('git branch --show-current && git status')).stdout).toBe('agent/a\nOn branch agent/a\nnothing to commit, working tree clean\n');
    expect((await inside('echo four >> a.txt && git status --short && git commit -q -am "four" && git log --oneline')).stdout).toMatch(/^ M a\.txt\n[0-9a-f]{7} four\n[0-9a-f]{7} initial\n$/);
    // The main worktree did not move: its branch, its index, its files.
    expect((await sh(sb, 'git log --oneline && git status --short && cat a.txt')).stdout).toMatch(/^[0-9a-f]{7} initial\none\ntwo\nthree\n$/);
    expect((await sh(sb, 'git branch')).stdout).toBe('  agent/a\n* main\n');
    const list = await sh(sb, 'git worktree list');
    expect(list.stdout).toMatch(new RegExp(`^${WORKDIR}        [0-9a-f]{7} \\[main\\]\n${WT.replace(/\./g, '\\.')}  [0-9a-f]{7} \\[agent/a\\]\n$`));
    expect((await sh(sb, 'git worktree list --porcelain')).stdout).toContain(`worktree ${WT}\nHEAD `);
    expect((await sh(sb, 'git log --oneline -1 agent/a')).stdout).toMatch(/^[0-9a-f]{7} four\n$/);
  });

  it('refuses a branch that exists or is checked out elsewhere, a path that is not empty, and a dirty remove without --force', async () => {
    const sb = await repo();
    expect((await sh(sb, 'git worktree add -b main /w1')).stderr).toBe("fatal: a branch named 'main' already exists\n");
    expect((await sh(sb, 'git worktree add /w1 main')).stderr).toBe(`fatal: 'main' is already used by worktree at '${WORKDIR}'\n`);
    expect((await sh(sb, `git worktree add -b x ${WORKDIR}/src`)).stderr).toBe(`fatal: '${WORKDIR}/src' already exists\n`);
    expect((await sh(sb, 'git branch')).stdout).toBe('* main\n');
    expect((await sh(sb, 'git worktree add -q -b b /w2')).exitCode).toBe(0);
    await sb.fs.writeFile('/w2/new.txt', 'n\n');
    expect((await sh(sb, 'git worktree remove /w2')).stderr).toBe("fatal: '/w2' contains modified or untracked files, use --force to delete it\n");
    expect((await sh(sb, 'git worktree remove /home/project')).stderr).toBe("fatal: '/home/project' is a main working tree\n");
    expect((await sh(sb, 'git branch -d b')).stderr).toBe("error: cannot delete branch 'b' used by worktree at '/w2'\n");
    expect((await sh(sb, 'git worktree remove --force /w2')).exitCode).toBe(0);
    expect(await sb.fs.stat('/w2')).toBeNull();
    expect((await sh(sb, 'git worktree list')).stdout).toMatch(/^\/home\/project {2}[0-9a-f]{7} \[main\]\n$/);
    // The branch stays, as in git.
    expect((await sh(sb, 'git branch')).stdout).toBe('  b\n* main\n');
    expect((await sh(sb, 'git worktree frob')).stderr).toMatch(/unknown subcommand 'frob' for git worktree/);
  });

  it('prune forgets a worktree whose folder is gone', async () => {
    const sb = await repo();
    await sh(sb, 'git worktree add -q -b gone /w3');
    await sb.fs.rm('/w3', { recursive: true });
    await sh(sb, 'git worktree prune');
    expect((await sh(sb, 'git worktree list')).stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('a commit while MERGE_HEAD is there is a merge commit with both parents; status says a merge is in progress', async () => {
    const sb = await repo();
    await sh(sb, `git worktree add -q -b side ${WT}`);
    await sb.exec('echo side > side.txt && git add side.txt && git commit -qm "side work"', { cwd: WT });
    await sh(sb, 'git rev-parse side > .git/MERGE_HEAD && echo side > side.txt && git add side.txt');
    expect((await sh(sb, 'git status')).stdout).toContain('On branch main\nAll conflicts fixed but you are still merging.\n  (use "git commit" to conclude merge)\n');
    const c = await sh(sb, 'git commit -m "Merge branch side"');
    expect(c.exitCode).toBe(0);
    // "side work" is reachable from main only through the merge commit's second parent.
    const log = (await sh(sb, "git log --oneline")).stdout;
    expect(log, log).toMatch(/^[0-9a-f]{7} Merge branch side\n([0-9a-f]{7} (side work|initial)\n){2}$/);
    expect(await sb.fs.stat(`${WORKDIR}/.git/MERGE_HEAD`)).toBeNull();
    expect((await sh(sb, 'git status')).stdout).toBe('On branch main\nnothing to commit, working tree clean\n');
  });
});

describe('git merge', () => {
  async function branched(): Promise<Sandbox> {
    const sb = await repo();
    await sh(sb, 'git checkout -q -b feature && echo feat > feat.txt && git add feat.txt && git commit -q -m "feature file" && git checkout -q main');
    return sb;
  }

  it('fast-forwards when it can, and --no-ff makes a merge commit; the files and index follow', async () => {
    const sb = await branched();
    const ff = await sh(sb, 'git merge feature');
    expect(ff.exitCode).toBe(0);
    expect(ff.stdout).toMatch(/^Updating [0-9a-f]{7}\.\.[0-9a-f]{7}\nFast-forward\n feat\.txt \| {2}1 \+\n 1 file changed, 1 insertion\(\+\)\n$/);
    expect(await sb.fs.readFile('feat.txt')).toBe('feat\n');
    expect((await sh(sb, 'git status --short')).stdout).toBe('');
    expect((await sh(sb, 'git merge feature')).stdout).toBe('Already up to date.\n');

    const sb2 = await branched();
    const noFf = await sh(sb2, 'git merge --no-ff feature');
    expect(noFf.stdout).toMatch(/^Merge made by the 'ort' strategy\.\n feat\.txt/);
    expect((await sh(sb2, 'git log --oneline')).stdout).toMatch(/^[0-9a-f]{7} Merge branch 'feature'\n[0-9a-f]{7} feature file\n[0-9a-f]{7} initial\n$/);
    expect((await sh(sb2, 'git status --short')).stdout).toBe('');
  });

  it('merges diverged branches three-way when their changes do not touch', async () => {
    const sb = await branched();
    await sh(sb, "sed -i 's/one/ONE/' a.txt && git commit -q -am 'main edits a'");
    await sh(sb, "git checkout -q feature && sed -i 's/three/THREE/' a.txt && git commit -q -am 'feature edits a' && git checkout -q main");
    const m = await sh(sb, 'git merge feature');
    expect([m.exitCode, m.stdout.split('\n')[0]]).toEqual([0, "Merge made by the 'ort' strategy."]);
    expect(await sb.fs.readFile('a.txt')).toBe('ONE\ntwo\nTHREE\n');
    expect(await sb.fs.readFile('feat.txt')).toBe('feat\n');
    expect((await sh(sb, 'git status --short')).stdout).toBe('');
  });

  it('reports a conflict clearly and changes nothing; refuses local edits the merge would overwrite', async () => {
    const sb = await branched();
    await sh(sb, "sed -i 's/two/main two/' a.txt && git commit -q -am 'main two'");
    await sh(sb, "git checkout -q feature && sed -i 's/two/feature two/' a.txt && git commit -q -am 'feature two' && git checkout -q main");
    const head = (await sh(sb, 'git rev-parse HEAD')).stdout;
    const c = await sh(sb, 'git merge feature');
    expect(c.exitCode).toBe(1);
    expect(c.stderr).toContain('Auto-merging a.txt\nCONFLICT (content): Merge conflict in a.txt\nAutomatic merge failed. The sandbox\'s git writes no conflict markers, so nothing was changed');
    expect(await sb.fs.readFile('a.txt')).toBe('one\nmain two\nthree\n');
    expect(await sb.fs.stat('feat.txt')).toBeNull();
    expect((await sh(sb, 'git rev-parse HEAD')).stdout).toBe(head);
    expect((await sh(sb, 'git status --short')).stdout).toBe('');

    const sb2 = await branched();
    await sb2.fs.writeFile('feat.txt', 'mine\n');
    await sh(sb2, 'git add feat.txt');
    const refused = await sh(sb2, 'git merge feature');
    expect([refused.exitCode, refused.stderr]).toEqual([1, 'error: Your local changes to the following files would be overwritten by merge:\n\tfeat.txt\nPlease commit your changes or stash them before you merge.\nAborting\n']);
    expect((await sh(sb2, 'git merge --ff-only nope')).stderr).toBe('fatal: merge: nope - not something we can merge\n');
  });
});
