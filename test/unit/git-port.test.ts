/**
 * The `SandboxGit` port's contract (`harness/ports.ts`) on the real just-bash sandbox and its
 * isomorphic-git `git`: what each method leaves is what `git` in the sandbox's bash then shows.
 */
import { describe, expect, it } from 'vitest';
import { WORKDIR, type Sandbox, type SandboxGit } from '../../src/harness/ports.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const WT = '/.ws/w/home/project';

async function project(init = true): Promise<{ sb: Sandbox; git: SandboxGit }> {
  const sb = await createJustBashSandbox({ files: { 'a.txt': 'one\n', 'src/b.txt': 'b\n' }, env: { GIT_AUTHOR_NAME: 'Lead', GIT_AUTHOR_EMAIL: 'lead@example.com' } });
  if (init) expect((await sb.exec('git init -q -b main && git add -A && git commit -q -m initial')).exitCode).toBe(0);
  return { sb, git: sb.git! };
}

const sh = async (sb: Sandbox, command: string, cwd = WORKDIR) => (await sb.exec(command, { cwd, timeoutMs: 20_000 })).stdout;

describe('SandboxGit over the sandbox\'s git', () => {
  it('head: the commit and branch at the top of a repository; null for no repository, no commit, or a subfolder', async () => {
    const { sb, git } = await project();
    const head = await git.head(WORKDIR);
    expect(head).toEqual({ commit: (await sh(sb, 'git rev-parse HEAD')).trim(), branch: 'main' });
    expect(await git.head(`${WORKDIR}/src`)).toBeNull();
    expect(await (await project(false)).git.head(WORKDIR)).toBeNull();
    const unborn = await createJustBashSandbox({ files: { 'a.txt': 'a\n' } });
    await unborn.exec('git init -q');
    expect(await unborn.git!.head(WORKDIR)).toBeNull();
  });

  it('addWorktree, commit, recordMerge (conclude): a branch, its commit, and a merge commit even where HEAD could fast-forward', async () => {
    const { sb, git } = await project();
    const base = (await git.head(WORKDIR))!.commit;
    await git.addWorktree(WORKDIR, { path: WT, branch: 'agent/w', commit: base });
    expect(await sh(sb, 'git branch --show-current', WT)).toBe('agent/w\n');
    await sb.fs.writeFile(`${WT}/a.txt`, 'one\ntwo\n');
    await sb.fs.writeFile(`${WT}/c.txt`, 'c\n');
    await sb.fs.rm(`${WT}/src/b.txt`);
    // Only the paths named are committed.
    await sb.fs.writeFile(`${WT}/stray.txt`, 'not mine\n');
    const commit = await git.commit(WT, { paths: ['a.txt', 'c.txt', 'src/b.txt'], message: 'agent-w: edit\n\nthree files', author: { name: 'agent-w', email: 'w@agents' } });
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await sh(sb, 'git status --short', WT)).toBe('?? stray.txt\n');
    expect(await sh(sb, 'git log -1', WT)).toContain('Author: agent-w <w@agents>');
    // Nothing left to commit: null, and no new commit.
    expect(await git.commit(WT, { paths: ['a.txt'], message: 'again' })).toBeNull();

    // The merged content is in the working tree; recordMerge stages it and makes the merge commit.
    await sb.fs.writeFile('a.txt', 'one\ntwo\n');
    await sb.fs.writeFile('c.txt', 'c\n');
    await sb.fs.rm('src/b.txt');
    const merge = await git.recordMerge(WORKDIR, { branch: 'agent/w', paths: ['a.txt', 'c.txt', 'src/b.txt'], message: "Merge branch 'agent/w'", conclude: true });
    expect(merge.inProgress).toBe(false);
    expect(merge.commit).toBe((await sh(sb, 'git rev-parse HEAD')).trim());
    expect(await sh(sb, 'git status --short')).toBe('');
    const log = (await sh(sb, 'git log --oneline')).split('\n').filter(Boolean).map((l) => l.slice(8));
    expect(log).toEqual(["Merge branch 'agent/w'", 'agent-w: edit', 'initial']);

    await git.removeWorktree(WORKDIR, WT);
    expect(await sb.fs.stat(WT)).toBeNull();
    expect(await sh(sb, 'git branch')).toBe('  agent/w\n* main\n');
  });

  it('recordMerge without conclude leaves the merge in progress; the next git commit concludes it', async () => {
    const { sb, git } = await project();
    const base = (await git.head(WORKDIR))!.commit;
    await git.addWorktree(WORKDIR, { path: WT, branch: 'agent/w', commit: base });
    await sb.fs.writeFile(`${WT}/c.txt`, 'c\n');
    await git.commit(WT, { paths: ['c.txt'], message: 'agent-w: c' });
    await sb.fs.writeFile('c.txt', 'c\n');
    const merge = await git.recordMerge(WORKDIR, { branch: 'agent/w', paths: ['c.txt'], message: "Merge branch 'agent/w'", conclude: false });
    expect(merge).toEqual({ commit: null, inProgress: true });
    expect(await sh(sb, 'git status')).toContain('All conflicts fixed but you are still merging.');
    expect(await sh(sb, 'git status --short')).toBe('A  c.txt\n');
    await sh(sb, 'git commit -q -m "resolved"');
    expect((await sh(sb, 'git log --oneline')).split('\n').filter(Boolean).map((l) => l.slice(8))).toEqual(['resolved', 'agent-w: c', 'initial']);
  });

  it('rejects with git\'s message, and creates nothing, for a branch that exists', async () => {
    const { sb, git } = await project();
    const base = (await git.head(WORKDIR))!.commit;
    await expect(git.addWorktree(WORKDIR, { path: WT, branch: 'main', commit: base })).rejects.toThrow(/a branch named 'main' already exists/);
    expect(await sb.fs.stat(WT)).toBeNull();
    expect(await sh(sb, 'git worktree list')).toMatch(/^\/home\/project {2}[0-9a-f]{7} \[main\]\n$/);
  });
});
