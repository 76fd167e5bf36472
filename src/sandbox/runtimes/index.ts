/**
 * The runtime commands just-bash does not have — `node`, `npm`, `npx` and `git` — as lazy
 * custom commands: their code (QuickJS, isomorphic-git) loads on first use, so a sandbox that
 * never runs them pays nothing.
 */
import type { LazyCommand } from 'just-bash';
import type { RuntimeHooks } from './hooks.ts';

export type { RuntimeHooks } from './hooks.ts';

export function runtimeCommands(hooks: RuntimeHooks): LazyCommand[] {
  return [
    { name: 'node', load: async () => (await import('./node/node-command.ts')).createNodeCommand(hooks) },
    { name: 'git', load: async () => (await import('./git/git-command.ts')).createGitCommand(hooks) },
    { name: 'npm', load: async () => (await import('./npm-command.ts')).createNpmCommand() },
    {
      name: 'npx',
      load: () =>
        Promise.resolve({
          name: 'npx',
          execute: () =>
            Promise.resolve({
              stdout: '',
              stderr: 'npx is not available in the sandbox: it is offline, so packages cannot be downloaded. Run project scripts with npm run <script>, or node directly.\n',
              exitCode: 1,
            }),
        }),
    },
  ];
}
