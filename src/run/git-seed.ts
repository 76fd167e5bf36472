/**
 * A scenario's `settings.git`: its files start as a git repository with one commit, so the
 * agent's `git diff` / `git status` show exactly what it changed. Done through the sandbox's
 * own `git` (isomorphic-git in just-bash, the real one in WebContainer), as a user would.
 */
import type { Sandbox } from '../harness/ports.ts';

export class GitSeedError extends Error {}

/** The author of the seed commit (not the user's identity, which the sandbox does not know). */
const SEED_ENV = {
  GIT_AUTHOR_NAME: 'Scenario',
  GIT_AUTHOR_EMAIL: 'scenario@harness.playground',
  GIT_COMMITTER_NAME: 'Scenario',
  GIT_COMMITTER_EMAIL: 'scenario@harness.playground',
};

function quote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}

export async function seedGitRepo(sandbox: Sandbox, message: string): Promise<void> {
  const r = await sandbox.exec(`git init -q -b main && git add -A && git commit -q -m ${quote(message)}`, {
    env: SEED_ENV,
    timeoutMs: 60_000,
  });
  if (r.exitCode !== 0) {
    throw new GitSeedError(`The scenario asks for a git repository, but creating it failed (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim()}`);
  }
}
