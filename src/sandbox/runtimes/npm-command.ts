/**
 * The `npm` shell command, offline: `npm test` / `npm start` / `npm run <script> [-- args]`
 * run the nearest `package.json`'s scripts through the shell (so `node --test` in a script is
 * the sandbox's node), with npm's `> name@version script` banner and its failure lines.
 * `npm run` alone lists the scripts. Everything that needs the registry (install, ci, npx …)
 * fails with a message saying so.
 */
import type { Command, CommandContext, ExecResult } from 'just-bash';
import { dirname } from '../../harness/util/index.ts';

type Pkg = { name?: string; version?: string; scripts?: Record<string, string> };

async function findPackage(ctx: CommandContext): Promise<{ dir: string; pkg: Pkg } | { error: string }> {
  for (let dir = ctx.cwd; ; dir = dirname(dir)) {
    const file = `${dir === '/' ? '' : dir}/package.json`;
    if (await ctx.fs.exists(file)) {
      try {
        return { dir, pkg: JSON.parse(await ctx.fs.readFile(file)) as Pkg };
      } catch (err) {
        return { error: `npm error code EJSONPARSE\nnpm error JSON.parse Invalid package.json: ${file}: ${err instanceof Error ? err.message : String(err)}\n` };
      }
    }
    if (dir === '/') break;
  }
  return { error: `npm error code ENOENT\nnpm error syscall open\nnpm error path ${ctx.cwd}/package.json\nnpm error enoent Could not read package.json: there is no package.json in ${ctx.cwd} or above.\n` };
}

const OFFLINE = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'uninstall', 'remove', 'rm', 'publish', 'exec', 'x', 'init', 'create', 'audit', 'outdated', 'link', 'pack']);

function shellQuote(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`;
}

export function createNpmCommand(): Command {
  return {
    name: 'npm',
    async execute(args, ctx): Promise<ExecResult> {
      const [sub, ...rest] = args;
      if (sub === undefined || sub === '-h' || sub === '--help' || sub === 'help') {
        return { stdout: 'npm <command>\n\nIn the sandbox (offline): npm test, npm start, npm run <script> [-- <args>], npm run (list scripts), npm -v\n', stderr: '', exitCode: sub === undefined ? 1 : 0 };
      }
      if (sub === '-v' || sub === '--version') return { stdout: '10.9.0\n', stderr: '', exitCode: 0 };
      if (OFFLINE.has(sub)) {
        return {
          stdout: '',
          stderr: `npm error npm ${sub} is not available in the sandbox: it is offline, with no npm registry. Packages cannot be installed; use Node's built-in modules and the project's own files.\n`,
          exitCode: 1,
        };
      }
      const found = await findPackage(ctx);
      if ('error' in found) return { stdout: '', stderr: found.error, exitCode: 254 };
      const { dir, pkg } = found;
      const scripts = pkg.scripts ?? {};
      const isRun = sub === 'run' || sub === 'run-script';
      if (isRun && rest.length === 0) {
        const names = Object.keys(scripts);
        const listing = names.length
          ? `Scripts available in ${pkg.name ?? ''}@${pkg.version ?? ''} via \`npm run-script\`:\n${names.map((n) => `  ${n}\n    ${scripts[n]}`).join('\n')}\n`
          : '';
        return { stdout: listing, stderr: '', exitCode: 0 };
      }
      const name = isRun ? rest[0]! : sub === 't' || sub === 'tst' ? 'test' : sub;
      const extra = (isRun ? rest.slice(1) : rest).filter((a, i, all) => !(a === '--' && i === all.indexOf('--')));
      if (!isRun && !['test', 'start', 'stop', 'restart'].includes(name)) {
        return { stdout: '', stderr: `npm error Unknown command: "${sub}"\n\nTo see a list of supported npm commands, run:\n  npm help\n`, exitCode: 1 };
      }
      const script = scripts[name];
      if (script === undefined) {
        const hint = name === 'start' ? '' : `\nnpm error To see a list of scripts, run:\nnpm error   npm run\n`;
        return { stdout: '', stderr: `npm error Missing script: "${name}"\n${hint}`, exitCode: 1 };
      }
      const command = [script, ...extra.map(shellQuote)].join(' ');
      const banner = `\n> ${pkg.name ?? ''}${pkg.version ? `@${pkg.version}` : ''} ${name}\n> ${command}\n\n`;
      if (!ctx.exec) return { stdout: banner, stderr: 'npm error the shell cannot run scripts here\n', exitCode: 1 };
      const r = await ctx.exec(command, { cwd: dir, env: { npm_lifecycle_event: name, npm_package_name: pkg.name ?? '' } });
      const failure =
        r.exitCode === 0 ? '' : `npm error Lifecycle script \`${name}\` failed with error:\nnpm error code ${r.exitCode}\nnpm error path ${dir}\nnpm error command failed\nnpm error command sh -c ${command}\n`;
      return { stdout: banner + r.stdout, stderr: r.stderr + failure, exitCode: r.exitCode };
    },
  };
}
