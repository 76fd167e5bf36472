/**
 * `SandboxGit` (see `harness/ports.ts`) through the sandbox's own shell: every operation is a few
 * ordinary git commands (`worktree add`, `add`, `commit`, `rev-parse`, a `MERGE_HEAD` before the
 * merge commit), run by `exec` as a user would type them. So the port needs nothing but a shell
 * with git, works the same whether just-bash runs in this thread or in a Worker, and leaves
 * exactly what `git log`, `git branch` and `git worktree list` then show. It would drive a real
 * git CLI unchanged; WebContainer has none, so it gets no port.
 */
import type { ExecOptions, ExecResult, GitIdentity, SandboxGit } from '../harness/ports.ts';

type Exec = (command: string, opts?: ExecOptions) => Promise<ExecResult>;

export function quote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

function identityEnv(who: GitIdentity | undefined): Record<string, string> {
  return who ? { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email } : {};
}

const OID = /^[0-9a-f]{40}$/;

export function shellGit(exec: Exec): SandboxGit {
  async function run(command: string, cwd: string, env: Record<string, string> = {}): Promise<string> {
    const r = await exec(command, { cwd, env, timeoutMs: 60_000 });
    if (r.exitCode !== 0) throw new Error(`git failed in ${cwd} (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim()}`);
    return r.stdout;
  }
  const tipOf = async (dir: string, branch: string) => (await run(`git rev-parse ${quote(`refs/heads/${branch}`)}`, dir)).trim();
  const addPaths = (paths: readonly string[]) => `git add -A -- ${paths.map(quote).join(' ')}`;

  return {
    async head(dir) {
      const r = await exec('git rev-parse --show-toplevel HEAD && git branch --show-current', { cwd: dir, timeoutMs: 60_000 });
      if (r.exitCode !== 0) return null;
      const [top, commit, branch] = r.stdout.split('\n').map((l) => l.trim());
      if (top !== dir || !commit || !OID.test(commit)) return null;
      return { commit, branch: branch || null };
    },
    async addWorktree(dir, { path, branch, commit }) {
      await run(`git worktree add -q -b ${quote(branch)} ${quote(path)} ${quote(commit)}`, dir);
    },
    async commit(path, { paths, message, author }) {
      if (paths.length === 0) return null;
      const before = (await run('git rev-parse HEAD', path)).trim();
      await run(addPaths(paths), path);
      const r = await exec(`git commit -q -m ${quote(message)}`, { cwd: path, env: identityEnv(author), timeoutMs: 60_000 });
      const after = (await run('git rev-parse HEAD', path)).trim();
      if (r.exitCode !== 0 && after === before) return null;
      return after === before ? null : after;
    },
    async recordMerge(dir, { branch, paths, message, conclude, author }) {
      const tip = await tipOf(dir, branch);
      const gitdir = (await run('git rev-parse --git-dir', dir)).trim();
      const mergeHead = `${gitdir.startsWith('/') ? gitdir : `${dir}/${gitdir}`}/MERGE_HEAD`;
      const already = (await exec(`test -f ${quote(mergeHead)}`, { cwd: dir })).exitCode === 0;
      if (paths.length) await run(addPaths(paths), dir);
      await run(`echo ${tip} >> ${quote(mergeHead)} && printf '%s\\n' ${quote(message)} ${already ? '>>' : '>'} ${quote(mergeHead.replace(/MERGE_HEAD$/, 'MERGE_MSG'))}`, dir);
      if (!conclude || already) return { commit: null, inProgress: true };
      await run(`git commit -q -m ${quote(message)}`, dir, identityEnv(author));
      return { commit: (await run('git rev-parse HEAD', dir)).trim(), inProgress: false };
    },
    async removeWorktree(dir, path) {
      await run(`git worktree remove --force ${quote(path)}`, dir);
    },
  };
}
