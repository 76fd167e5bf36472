/**
 * A sandbox whose commands start with extra environment variables (settings' `env`, as Claude
 * Code sets them for its tools and hooks). A call's own `env` wins over these. Everything else —
 * files, git, disposal — is the wrapped sandbox's.
 */
import type { Sandbox } from '../harness/ports.ts';

export function sandboxWithEnv(sandbox: Sandbox, env: Readonly<Record<string, string>>): Sandbox {
  return {
    kind: sandbox.kind,
    workdir: sandbox.workdir,
    ...(sandbox.capabilities ? { capabilities: sandbox.capabilities } : {}),
    fs: sandbox.fs,
    ...(sandbox.git ? { git: sandbox.git } : {}),
    exec: (command, opts) => sandbox.exec(command, { ...opts, env: { ...env, ...opts?.env } }),
    dispose: () => sandbox.dispose(),
  };
}
