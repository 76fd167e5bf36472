/**
 * The `node` shell command: `node file.js [args]`, `node -e/-p code`, `node --test [paths]`,
 * `node --version`, over a QuickJS runtime (run-program.ts) and a synchronous view of the
 * sandbox files (snapshot-fs.ts) whose writes are applied when the program ends.
 *
 * Why QuickJS-WASM rather than a Worker running the page's own engine: one engine, byte for
 * byte, in the browser, in the sandbox Worker and in Node; an interrupt handler that ends a
 * busy loop in the same thread; a heap limit; and no `eval` of strings in the page (the app's
 * CSP allows 'wasm-unsafe-eval' only).
 */
import type { Command, CommandContext, ExecResult } from 'just-bash';
import { resolvePath } from '../../../harness/util/index.ts';
import { StreamPair } from '../hooks.ts';
import type { RuntimeHooks } from '../hooks.ts';
import { runProgram } from './run-program.ts';
import type { NodeProgram } from './run-program.ts';
import { SnapshotFs } from './snapshot-fs.ts';
import { TapWriter } from './tap-report.ts';
import { findTestFiles } from './test-discovery.ts';
import { NODE_VERSION_LINE } from './uncaught.ts';

export const NODE_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
const VERSION = 'v22.0.0';

const HELP = `Usage: node [options] [ script.js | -e "script" | --test [paths] ] [arguments]

The sandbox's node runs JavaScript in QuickJS (WebAssembly), with CommonJS and ES modules,
node:fs, path, assert, test, util, events, os, url, timers and process. There is no network,
no child_process, no native addons and no npm registry.

Options:
  -e, --eval "script"   run the script
  -p, --print "script"  run the script and print its value
  --test [paths]        run node:test files (TAP report)
  -v, --version         print the version
`;

/** Flags Node accepts that change nothing here. */
const IGNORED_FLAG = /^--(no-warnings|no-deprecation|enable-source-maps|experimental-[\w-]+|trace-warnings|test-reporter(=.*)?|max-old-space-size=\d+|stack-size=\d+|trace-uncaught|preserve-symlinks|no-experimental-[\w-]+)$/;
const UNSUPPORTED_FLAG: Record<string, string> = {
  '--watch': 'watch mode needs a long-running process',
  '--inspect': 'there is no debugger',
  '--inspect-brk': 'there is no debugger',
  '--require': 'preloading modules is not supported',
  '-r': 'preloading modules is not supported',
  '--import': 'preloading modules is not supported',
  '--loader': 'custom loaders are not supported',
  '--prof': 'profiling is not supported',
  '-i': 'the interactive REPL is not available',
  '--interactive': 'the interactive REPL is not available',
};

type Parsed =
  | { kind: 'run'; program: NodeProgram; scriptArgs: string[] }
  | { kind: 'test'; paths: string[] }
  | { kind: 'text'; stdout: string; stderr: string; exitCode: number };

function fail(message: string, exitCode = 9): Parsed {
  return { kind: 'text', stdout: '', stderr: `node: ${message}\n`, exitCode };
}

export function parseNodeArgs(args: string[], cwd: string): Parsed {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-v' || a === '--version') return { kind: 'text', stdout: `${VERSION}\n`, stderr: '', exitCode: 0 };
    if (a === '-h' || a === '--help') return { kind: 'text', stdout: HELP, stderr: '', exitCode: 0 };
    if (a === '--test') return { kind: 'test', paths: args.slice(i + 1).filter((p) => !IGNORED_FLAG.test(p)) };
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') {
      const code = args[i + 1];
      if (code === undefined) return fail(`${a} requires an argument`);
      return { kind: 'run', program: { kind: 'eval', code, print: a === '-p' || a === '--print' }, scriptArgs: args.slice(i + 2) };
    }
    if (a.startsWith('--eval=') || a.startsWith('--print=')) {
      const print = a.startsWith('--print=');
      return { kind: 'run', program: { kind: 'eval', code: a.slice(a.indexOf('=') + 1), print }, scriptArgs: args.slice(i + 1) };
    }
    if (a === '--') {
      const file = args[i + 1];
      if (file === undefined) break;
      return { kind: 'run', program: { kind: 'file', path: resolvePath(cwd, file) }, scriptArgs: args.slice(i + 2) };
    }
    const why = UNSUPPORTED_FLAG[a.split('=')[0]!];
    if (why) return fail(`${a} is not supported in the sandbox: ${why}`);
    if (IGNORED_FLAG.test(a)) continue;
    if (a.startsWith('-')) return fail(`bad option: ${a}`);
    return { kind: 'run', program: { kind: 'file', path: resolvePath(cwd, a) }, scriptArgs: args.slice(i + 1) };
  }
  return fail("the interactive REPL is not available in the sandbox; run a file (node app.js) or code (node -e '...')", 1);
}

function envOf(ctx: CommandContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of ctx.env) env[k] = v;
  return env;
}

function outOfMemoryLine(limit: number): string {
  return `node: out of memory (limit ${Math.round(limit / (1024 * 1024))} MB)\n`;
}

export function createNodeCommand(hooks: RuntimeHooks, memoryLimitBytes = NODE_MEMORY_LIMIT_BYTES): Command {
  return {
    name: 'node',
    async execute(args, ctx): Promise<ExecResult> {
      const parsed = parseNodeArgs(args, ctx.cwd);
      if (parsed.kind === 'text') return parsed;
      const io = new StreamPair(hooks.live());
      const realFs = hooks.fs?.() ?? ctx.fs;
      const fs = await SnapshotFs.load(realFs);
      const env = envOf(ctx);
      const signal = hooks.signal();
      const base = { fs, env, cwd: ctx.cwd, memoryLimitBytes, io: { write: (fd: 1 | 2, t: string) => io.write(fd, t), stopped: () => hooks.stopped(), ...(signal ? { signal } : {}) } };
      let exitCode: number;
      try {
        if (parsed.kind === 'run') {
          const file = parsed.program.kind === 'file' ? parsed.program.path : undefined;
          if (file !== undefined && fs.stat(file)?.kind !== 'file') {
            io.write(2, `Error: Cannot find module '${file}'\n    code: 'MODULE_NOT_FOUND'\n\n${NODE_VERSION_LINE}\n`);
            return { stdout: io.stdout, stderr: io.stderr, exitCode: 1 };
          }
          const argv = ['/usr/local/bin/node', ...(file ? [file] : []), ...parsed.scriptArgs];
          const out = await runProgram({ ...base, program: parsed.program, argv });
          exitCode = out.exitCode;
          if (out.outOfMemory) io.write(2, outOfMemoryLine(memoryLimitBytes));
          if (out.tests && file) {
            const tap = new TapWriter();
            io.write(1, tap.header() + tap.file(file, out.tests) + tap.summary(0));
          }
        } else {
          exitCode = await runTests(parsed.paths, base, io, memoryLimitBytes);
        }
      } finally {
        await fs.flush(realFs);
      }
      return { stdout: io.stdout, stderr: io.stderr, exitCode };
    },
  };
}

async function runTests(
  paths: string[],
  base: Omit<Parameters<typeof runProgram>[0], 'program' | 'argv'>,
  io: StreamPair,
  memoryLimitBytes: number,
): Promise<number> {
  const found = findTestFiles(base.fs, base.cwd, paths);
  if ('missing' in found) {
    io.write(2, `Could not find '${resolvePath(base.cwd, found.missing)}'\n`);
    return 1;
  }
  const started = Date.now();
  const tap = new TapWriter();
  io.write(1, tap.header());
  let failedFiles = 0;
  for (const file of found.files) {
    if (base.io.stopped()) break;
    // A test file's own output is shown as TAP comments, as Node's reporter does.
    const asComment = (fd: 1 | 2, text: string) => io.write(1, text.replace(/\n$/, '').split('\n').map((l) => `# ${l}`).join('\n') + '\n');
    const out = await runProgram({ ...base, io: { ...base.io, write: asComment }, program: { kind: 'file', path: file }, argv: ['/usr/local/bin/node', file] });
    const result = out.tests ?? { children: [] };
    if (!out.tests && out.exitCode !== 0 && !out.stopped) {
      const message = out.outOfMemory ? outOfMemoryLine(memoryLimitBytes).trim() : `test file failed with exit code ${out.exitCode}`;
      result.error = { name: 'Error', message, stack: '', failureType: 'testCodeFailure' };
    }
    if (out.outOfMemory) io.write(2, outOfMemoryLine(memoryLimitBytes));
    if (out.exitCode !== 0) failedFiles++;
    io.write(1, tap.file(file, result));
  }
  io.write(1, tap.summary(Date.now() - started));
  return tap.totals.fail > 0 || failedFiles > 0 ? 1 : 0;
}
