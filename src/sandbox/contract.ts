/**
 * The shared contract every {@link Sandbox} must pass: the unit tests run it on just-bash in
 * Node, and the app runs it in the browser as a "sandbox self-check" on whichever sandbox is
 * live. No test framework here: a case throws an Error saying what differed.
 *
 * Timeouts are small (hundreds of ms) so the whole suite runs in a few seconds.
 */
import { HOME_DIR, SandboxFsError, WORKDIR } from '../harness/ports.ts';
import type { ExecResult, Sandbox } from '../harness/ports.ts';

export type ContractCase = { name: string; run(sb: Sandbox): Promise<void> };
export type ContractOutcome = { name: string; ok: boolean; error?: string; ms: number };

// ─── Tiny assertions ────────────────────────────────────────────────────────────────────────

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (show(actual) !== show(expected)) throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function expectTrue(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(detail === undefined ? what : `${what} (got ${show(detail)})`);
}

export async function expectFsError(work: Promise<unknown>, code: string, what: string): Promise<void> {
  try {
    await work;
  } catch (err) {
    expectTrue(err instanceof SandboxFsError, `${what}: should reject with a SandboxFsError`, String(err));
    expectEqual((err as SandboxFsError).code, code, `${what}: error code`);
    return;
  }
  throw new Error(`${what}: expected a ${code} rejection, but it succeeded`);
}

function expectExit(r: ExecResult, code: number, what: string): void {
  if (r.exitCode !== code) {
    throw new Error(`${what}: expected exit ${code}, got ${r.exitCode} (stdout ${show(r.stdout)}, stderr ${show(r.stderr)})`);
  }
}

/** Fires `controller.abort()` after `ms`; the command under test is what we wait for. */
function abortAfter(ms: number): AbortController {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  return controller;
}

/**
 * A loop that never yields to the event loop. Its body is a command substitution rather than
 * `:` so that just-bash's 100,000-command limit (reached in about 0.4 s in Chromium with `:`)
 * comes seconds after the timeouts used here, not before them.
 */
const BUSY_LOOP = 'while true; do s=$(echo spin); done';

/** Whether `sb` promises that an abort stops even a busy loop at once. */
function preemptive(sb: Sandbox): boolean {
  return sb.capabilities?.preemptiveAbort === true;
}

/** WebContainer has one combined output stream, so stderr text arrives in `stdout` there. */
function errText(sb: Sandbox, r: ExecResult): string {
  return sb.kind === 'webcontainer' ? r.stdout + r.stderr : r.stderr;
}

// ─── Cases ──────────────────────────────────────────────────────────────────────────────────

export const contractCases: ContractCase[] = [
  {
    name: 'workdir exists and is where commands start',
    async run(sb) {
      expectEqual(sb.workdir, WORKDIR, 'sandbox.workdir');
      expectEqual((await sb.fs.stat(WORKDIR))?.kind, 'dir', 'stat(workdir).kind');
      const r = await sb.exec('pwd');
      expectExit(r, 0, 'pwd');
      expectEqual(r.stdout.trim(), WORKDIR, 'pwd output');
      const home = await sb.exec('echo "$HOME"');
      expectTrue(home.stdout.trim().startsWith('/'), 'HOME is set to an absolute path', home.stdout);
    },
  },
  {
    name: 'the home directory is real and separate from the project',
    async run(sb) {
      const home = await sb.exec('echo "$HOME"; cd ~ && pwd');
      expectExit(home, 0, 'cd ~');
      expectEqual(home.stdout, `${HOME_DIR}\n${HOME_DIR}\n`, 'HOME and cd ~');
      expectEqual((await sb.fs.stat(HOME_DIR))?.kind, 'dir', 'stat(home).kind');
      await sb.exec('mkdir -p ~/.ssh && echo secret > ~/.ssh/id_rsa');
      expectEqual(await sb.fs.readFile(`${HOME_DIR}/.ssh/id_rsa`), 'secret\n', 'a file written under ~ is in the home directory');
      expectEqual(await sb.fs.stat(`${WORKDIR}/.ssh/id_rsa`), null, 'and not in the project');
    },
  },
  {
    name: 'relative and absolute paths name the same files',
    async run(sb) {
      await sb.fs.writeFile('rel/a.txt', 'via relative');
      expectEqual(await sb.fs.readFile(`${WORKDIR}/rel/a.txt`), 'via relative', 'read back by absolute path');
      await sb.fs.writeFile(`${WORKDIR}/rel/b.txt`, 'via absolute');
      expectEqual(await sb.fs.readFile('rel/b.txt'), 'via absolute', 'read back by relative path');
      expectEqual(await sb.fs.readFile('./rel/../rel/b.txt'), 'via absolute', 'read through . and ..');
      const r = await sb.exec(`cat rel/a.txt; echo; cat ${WORKDIR}/rel/b.txt`);
      expectEqual(r.stdout, 'via relative\nvia absolute', 'cat by relative and absolute path');
    },
  },
  {
    name: 'exit codes: 0, 1, explicit, 127 for an unknown command',
    async run(sb) {
      expectExit(await sb.exec('true'), 0, 'true');
      expectExit(await sb.exec('false'), 1, 'false');
      expectExit(await sb.exec('exit 3'), 3, 'exit 3');
      const missing = await sb.exec('definitely-not-a-command-xyz');
      expectExit(missing, 127, 'unknown command');
      expectTrue(/not found/i.test(errText(sb, missing)), 'unknown command says "not found"', missing);
      for (const r of [missing]) expectTrue(!r.timedOut && !r.aborted, 'a plain failure is neither timedOut nor aborted');
    },
  },
  {
    name: 'stdout and stderr are kept apart',
    async run(sb) {
      const r = await sb.exec('echo to-out; echo to-err >&2');
      expectExit(r, 0, 'echo to both');
      expectTrue(r.stdout.includes('to-out'), 'stdout has to-out', r.stdout);
      expectTrue(errText(sb, r).includes('to-err'), 'stderr has to-err', r);
      if (sb.kind !== 'webcontainer') expectTrue(!r.stdout.includes('to-err'), 'stdout must not have to-err', r.stdout);
    },
  },
  {
    name: 'cwd, env and stdin options are honoured',
    async run(sb) {
      await sb.fs.mkdir('sub/dir', { recursive: true });
      const cwd = await sb.exec('pwd; ls', { cwd: `${WORKDIR}/sub` });
      expectEqual(cwd.stdout, `${WORKDIR}/sub\ndir\n`, 'pwd and ls in cwd');
      const env = await sb.exec('echo "$GREETING-$OTHER"', { env: { GREETING: 'hello', OTHER: 'world' } });
      expectEqual(env.stdout, 'hello-world\n', 'env variables');
      const stdin = await sb.exec('tr a-z A-Z', { stdin: 'from stdin\n' });
      expectEqual(stdin.stdout, 'FROM STDIN\n', 'stdin piped to the command');
      const missing = await sb.exec('pwd', { cwd: `${WORKDIR}/no-such-dir` });
      expectTrue(missing.exitCode !== 0, 'a missing cwd fails the command', missing);
    },
  },
  {
    name: 'each exec starts with fresh shell state while files persist',
    async run(sb) {
      expectExit(await sb.exec('export KEEP=1; LOCAL=2; cd /; greet() { echo hi; }; echo kept > persist.txt'), 0, 'set up');
      const r = await sb.exec('echo "[$KEEP][$LOCAL]"; pwd; greet 2>/dev/null || echo no-function');
      expectEqual(r.stdout, `[][]\n${WORKDIR}\nno-function\n`, 'variables, cwd and functions reset');
      expectEqual(await sb.fs.readFile('/persist.txt'), 'kept\n', 'file written from / persists');
    },
  },
  {
    name: 'long output keeps head and tail with a marker and sets truncated',
    async run(sb) {
      const r = await sb.exec('seq 1 20000', { maxOutputChars: 2000 });
      expectExit(r, 0, 'seq');
      expectTrue(r.truncated, 'truncated flag set');
      expectTrue(r.stdout.startsWith('1\n2\n3\n'), 'head kept', r.stdout.slice(0, 20));
      expectTrue(r.stdout.trimEnd().endsWith('19999\n20000'), 'tail kept', r.stdout.slice(-20));
      expectTrue(/characters cut from the middle/.test(r.stdout), 'marker says how much was cut');
      expectTrue(r.stdout.length < 2200, 'cut to about maxOutputChars', r.stdout.length);
      const small = await sb.exec('seq 1 5', { maxOutputChars: 2000 });
      expectEqual([small.stdout, small.truncated], ['1\n2\n3\n4\n5\n', false], 'short output untouched');
    },
  },
  {
    name: 'timeout stops a busy loop with exit 124',
    async run(sb) {
      const r = await sb.exec(BUSY_LOOP, { timeoutMs: 300 });
      expectExit(r, 124, 'busy loop with timeoutMs 300');
      expectEqual([r.timedOut, r.aborted], [true, false], '[timedOut, aborted]');
      const after = await sb.exec('echo still-usable');
      expectEqual(after.stdout, 'still-usable\n', 'sandbox usable after a timeout');
    },
  },
  {
    name: 'timeout stops a waiting command with exit 124',
    async run(sb) {
      const r = await sb.exec('sleep 30; echo woke', { timeoutMs: 300 });
      expectExit(r, 124, 'sleep 30 with timeoutMs 300');
      expectTrue(r.timedOut && !r.stdout.includes('woke'), 'timed out before the echo', r);
    },
  },
  {
    name: 'abort stops a running command with exit 130',
    async run(sb) {
      const controller = abortAfter(100);
      const r = await sb.exec('while true; do sleep 0.02; done', { signal: controller.signal, timeoutMs: 5000 });
      expectExit(r, 130, 'loop aborted after 100 ms');
      expectEqual([r.aborted, r.timedOut], [true, false], '[aborted, timedOut]');
    },
  },
  {
    // In a sandbox that interprets in the caller's thread (just-bash without a Worker) the abort
    // timer cannot run until the loop gives the thread back, so there the timeout is what stops it.
    name: 'a busy loop is stopped by its abort (130), or in a same-thread sandbox by its timeout (124)',
    async run(sb) {
      const controller = abortAfter(50);
      const r = await sb.exec(BUSY_LOOP, { signal: controller.signal, timeoutMs: 300 });
      expectTrue(r.aborted || r.timedOut, 'the busy loop was stopped', r);
      expectExit(r, r.aborted ? 130 : 124, 'exit code matches the reason');
      if (preemptive(sb)) expectTrue(r.aborted, 'a sandbox with preemptive abort is aborted, not timed out', r);
    },
  },
  {
    // What the Stop button relies on. The timeout is the clock: aborted at 100 ms, the loop must
    // stop before its 1.5 s timeout would, so "aborted" (not "timedOut") means "within ~1 s".
    name: 'an abort stops a busy loop with exit 130 within ~1 s, files intact (sandboxes with preemptive abort)',
    async run(sb) {
      if (!preemptive(sb)) return;
      await sb.fs.writeFile('before-loop.txt', 'kept');
      const controller = abortAfter(100);
      const r = await sb.exec(BUSY_LOOP, { signal: controller.signal, timeoutMs: 1500 });
      expectExit(r, 130, 'busy loop aborted after 100 ms (timeout 1.5 s)');
      expectEqual([r.aborted, r.timedOut], [true, false], '[aborted, timedOut]');
      expectEqual(await sb.fs.readFile('before-loop.txt'), 'kept', 'files written before the loop survive');
      const after = await sb.exec('cat before-loop.txt');
      expectEqual(after.stdout, 'kept', 'sandbox usable after the abort');
    },
  },
  {
    name: 'an already-aborted signal returns 130 without running the command',
    async run(sb) {
      const controller = new AbortController();
      controller.abort();
      const r = await sb.exec('echo ran > ran.txt', { signal: controller.signal });
      expectExit(r, 130, 'pre-aborted exec');
      expectTrue(r.aborted, 'aborted flag');
      expectEqual(await sb.fs.stat('ran.txt'), null, 'command did not run');
    },
  },
  {
    name: 'a syntax error is a result, not a rejection',
    async run(sb) {
      const r = await sb.exec('if then fi (');
      expectTrue(r.exitCode !== 0, 'non-zero exit', r);
      expectTrue(errText(sb, r).length > 0, 'an error message', r);
    },
  },
  {
    name: 'fs: write, read, list (sorted), stat, mkdir, rm, rename',
    async run(sb) {
      await sb.fs.writeFile('deep/nested/file.txt', 'abc');
      expectEqual(await sb.fs.readFile('deep/nested/file.txt'), 'abc', 'writeFile created parents');
      await sb.fs.writeFile('deep/b.txt', '1');
      await sb.fs.writeFile('deep/a.txt', '22');
      await sb.fs.writeFile('deep/a.txt', '333');
      expectEqual(await sb.fs.list('deep'), [
        { name: 'a.txt', kind: 'file' },
        { name: 'b.txt', kind: 'file' },
        { name: 'nested', kind: 'dir' },
      ], 'list(deep)');
      const st = await sb.fs.stat('deep/a.txt');
      expectEqual([st?.kind, st?.size], ['file', 3], 'stat of a file after overwrite');
      expectTrue(typeof st?.mtimeMs === 'number' && st.mtimeMs > 0, 'mtimeMs is set', st);
      expectEqual((await sb.fs.stat('deep'))?.kind, 'dir', 'stat of a dir');
      expectEqual(await sb.fs.stat('nothing-here'), null, 'stat of nothing');
      await sb.fs.mkdir('made');
      await sb.fs.mkdir('made/x/y', { recursive: true });
      await sb.fs.mkdir('made', { recursive: true });
      expectEqual((await sb.fs.stat('made/x/y'))?.kind, 'dir', 'recursive mkdir');
      await sb.fs.rename('deep/b.txt', 'made/moved.txt');
      expectEqual([await sb.fs.stat('deep/b.txt'), await sb.fs.readFile('made/moved.txt')], [null, '1'], 'rename moved the file');
      await sb.fs.rename('made/x', 'renamed-dir');
      expectEqual((await sb.fs.stat('renamed-dir/y'))?.kind, 'dir', 'rename of a directory');
      await sb.fs.rm('deep/a.txt');
      await sb.fs.rm('deep', { recursive: true });
      await sb.fs.rm('never-existed', { force: true });
      expectEqual(await sb.fs.stat('deep'), null, 'rm -r removed the tree');
    },
  },
  {
    name: 'fs errors carry POSIX codes',
    async run(sb) {
      await sb.fs.writeFile('dir/file.txt', 'x');
      await expectFsError(sb.fs.readFile('missing.txt'), 'ENOENT', 'readFile of a missing file');
      await expectFsError(sb.fs.readFile('dir'), 'EISDIR', 'readFile of a directory');
      await expectFsError(sb.fs.writeFile('dir', 'x'), 'EISDIR', 'writeFile over a directory');
      await expectFsError(sb.fs.list('dir/file.txt'), 'ENOTDIR', 'list of a file');
      await expectFsError(sb.fs.list('missing-dir'), 'ENOENT', 'list of nothing');
      await expectFsError(sb.fs.mkdir('dir'), 'EEXIST', 'mkdir of an existing dir');
      await expectFsError(sb.fs.mkdir('a/b/c'), 'ENOENT', 'mkdir without parents');
      await expectFsError(sb.fs.rm('dir'), 'EISDIR', 'rm of a dir without recursive');
      await expectFsError(sb.fs.rm('missing.txt'), 'ENOENT', 'rm of nothing without force');
      await expectFsError(sb.fs.rename('missing.txt', 'b.txt'), 'ENOENT', 'rename of nothing');
      await expectFsError(sb.fs.writeFile('dir/file.txt/inner.txt', 'x'), 'ENOTDIR', 'writeFile under a file');
    },
  },
  {
    name: 'fs.realpath resolves symbolic links (or refuses with ENOTSUP where it cannot see them)',
    async run(sb) {
      await sb.fs.writeFile('real/file.txt', 'x');
      expectEqual(await sb.fs.realpath('real/file.txt'), `${WORKDIR}/real/file.txt`, 'a plain file is its own real path');
      expectEqual(await sb.fs.realpath('real/not-yet/new.txt'), `${WORKDIR}/real/not-yet/new.txt`, 'a path that does not exist is kept as written');
      expectExit(await sb.exec(`ln -s ${HOME_DIR} homelink && ln -s real rel && ln -s ${HOME_DIR}/planted.txt dangling`), 0, 'ln -s');
      const seen = async (p: string): Promise<string> => sb.fs.realpath(p).catch((err: unknown) => (err instanceof SandboxFsError && err.code === 'ENOTSUP' ? 'ENOTSUP' : Promise.reject(err)));
      const homes = [await seen('homelink/x.txt'), await seen('dangling')];
      expectTrue(homes.every((p) => p === 'ENOTSUP' || p.startsWith(`${HOME_DIR}/`)), 'a link out of the project resolves outside it (a folder link, a dangling link)', homes);
      const inside = await seen('rel/file.txt');
      expectTrue(inside === 'ENOTSUP' || inside === `${WORKDIR}/real/file.txt`, 'a relative link is read from its own folder', inside);
      await sb.exec('rm -f homelink rel dangling');
    },
  },
  {
    name: 'fs and exec see the same files',
    async run(sb) {
      await sb.fs.writeFile('from-fs.txt', 'written by fs\n');
      expectEqual((await sb.exec('cat from-fs.txt')).stdout, 'written by fs\n', 'cat sees fs.writeFile');
      expectExit(await sb.exec('mkdir -p out && echo "written by exec" > out/from-exec.txt'), 0, 'echo > file');
      expectEqual(await sb.fs.readFile('out/from-exec.txt'), 'written by exec\n', 'fs sees echo >');
      expectExit(await sb.exec('rm from-fs.txt'), 0, 'rm in exec');
      expectEqual(await sb.fs.stat('from-fs.txt'), null, 'fs sees rm');
    },
  },
  {
    name: 'watch notifies after fs changes and after exec, until unsubscribed',
    async run(sb) {
      const events: string[][] = [];
      const stop = sb.fs.watch((e) => events.push(e.paths));
      await sb.fs.writeFile('watched.txt', 'x');
      expectTrue(events.length >= 1, 'notified after writeFile', events);
      expectTrue(events.flat().some((p) => p.endsWith('watched.txt') || p === WORKDIR), 'paths name the change', events);
      const before = events.length;
      await sb.exec('echo y > by-exec.txt');
      expectTrue(events.length > before, 'notified after exec', events);
      expectTrue(events.slice(before).flat().some((p) => p.endsWith('by-exec.txt') || p === WORKDIR), 'exec paths name the change', events);
      stop();
      const count = events.length;
      await sb.fs.writeFile('after-stop.txt', 'z');
      await sb.exec('echo z > after-stop-2.txt');
      expectEqual(events.length, count, 'no events after unsubscribe');
    },
  },
  {
    name: 'onOutput receives the command output',
    async run(sb) {
      const chunks: { stream: string; text: string }[] = [];
      const r = await sb.exec('echo streamed; echo oops >&2', { onOutput: (c) => chunks.push(c) });
      const out = chunks.filter((c) => c.stream === 'stdout').map((c) => c.text).join('');
      const all = chunks.map((c) => c.text).join('');
      expectTrue(out.includes('streamed'), 'stdout chunk delivered', chunks);
      expectTrue(all.includes('oops'), 'stderr text delivered', chunks);
      expectTrue(r.stdout.includes('streamed'), 'result still has the output', r);
    },
  },
  ...runtimeCases(),
];

/**
 * `node`, `npm` and `git`, which agents reach for first on a JavaScript project. just-bash
 * provides them itself (QuickJS and isomorphic-git); in WebContainer they are the real
 * programs. Checks stick to what both print (e.g. `fail 1` is in Node's TAP and spec reports).
 */
function runtimeCases(): ContractCase[] {
  return [
    {
      name: 'node runs a file and -e code, with require of relative files and node:fs over the sandbox files',
      async run(sb) {
        await sb.fs.writeFile('lib/greet.js', 'module.exports = (n) => "hello " + n;\n');
        await sb.fs.writeFile('main.js', 'const greet = require("./lib/greet");\nconst fs = require("node:fs");\nfs.writeFileSync("from-node.txt", greet(process.argv[2]));\nconsole.log(greet("stdout"));\n');
        const r = await sb.exec('node main.js file', { timeoutMs: 30_000 });
        expectExit(r, 0, 'node main.js');
        expectEqual(r.stdout.trim(), 'hello stdout', 'node stdout');
        expectEqual(await sb.fs.readFile('from-node.txt'), 'hello file', 'file written by node');
        const e = await sb.exec(`node -e "console.log([1, 2].map((x) => x * 21).join(','))"`, { timeoutMs: 30_000 });
        expectEqual(e.stdout.trim(), '21,42', 'node -e output');
        const thrown = await sb.exec(`node -e "throw new Error('boom')"`, { timeoutMs: 30_000 });
        expectExit(thrown, 1, 'an uncaught error');
        expectTrue(/Error: boom/.test(errText(sb, thrown)), 'the error is printed', thrown);
      },
    },
    {
      name: 'node --test runs test files, reports pass and fail counts, exit 1 on failure; npm test runs it',
      async run(sb) {
        await sb.fs.writeFile('package.json', JSON.stringify({ name: 'contract', version: '1.0.0', scripts: { test: 'node --test' } }));
        await sb.fs.writeFile(
          'test/math.test.js',
          "const test = require('node:test');\nconst assert = require('node:assert');\ntest('passes', () => assert.strictEqual(1 + 1, 2));\ntest('fails', () => assert.strictEqual(1 + 1, 3));\n",
        );
        const r = await sb.exec('node --test', { timeoutMs: 60_000 });
        expectExit(r, 1, 'node --test with a failing test');
        expectTrue(/pass 1/.test(r.stdout) && /fail 1/.test(r.stdout), 'report counts one pass and one fail', r.stdout);
        const npm = await sb.exec('npm test', { timeoutMs: 60_000 });
        expectTrue(npm.exitCode !== 0, 'npm test fails too', npm);
        expectTrue(/fail 1/.test(npm.stdout), 'npm test shows the report', npm.stdout);
      },
    },
    {
      name: 'node: a busy loop is stopped by the timeout (124)',
      async run(sb) {
        const r = await sb.exec('node -e "while (true) {}"', { timeoutMs: 1500 });
        expectExit(r, 124, 'busy loop in node with timeoutMs 1500');
        expectTrue(r.timedOut, 'timedOut flag', r);
      },
    },
    {
      name: 'node: an abort stops a busy loop with exit 130 (sandboxes with preemptive abort)',
      async run(sb) {
        if (!preemptive(sb)) return;
        await sb.exec('node -e "1"', { timeoutMs: 30_000 });
        const controller = abortAfter(300);
        const r = await sb.exec('node -e "while (true) {}"', { signal: controller.signal, timeoutMs: 20_000 });
        expectExit(r, 130, 'node busy loop aborted after 300 ms (timeout 20 s)');
        expectEqual([r.aborted, r.timedOut], [true, false], '[aborted, timedOut]');
      },
    },
    {
      name: 'git: init, add, commit, status, log, diff',
      async run(sb) {
        await sb.fs.writeFile('notes.txt', 'one\ntwo\n');
        const env = { GIT_AUTHOR_NAME: 'Contract', GIT_AUTHOR_EMAIL: 'contract@example.com', GIT_COMMITTER_NAME: 'Contract', GIT_COMMITTER_EMAIL: 'contract@example.com' };
        const init = await sb.exec('git init -q -b main && git add notes.txt && git commit -q -m "first"', { env, timeoutMs: 30_000 });
        expectExit(init, 0, 'git init/add/commit');
        const log = await sb.exec('git log --oneline', { timeoutMs: 30_000 });
        expectTrue(/^[0-9a-f]{7,} first\n$/.test(log.stdout), 'git log --oneline shows the commit', log.stdout);
        await sb.fs.writeFile('notes.txt', 'one\nTWO\n');
        await sb.fs.writeFile('new.txt', 'n\n');
        const st = await sb.exec('git status --short', { timeoutMs: 30_000 });
        expectEqual(st.stdout, ' M notes.txt\n?? new.txt\n', 'git status --short');
        const diff = await sb.exec('git diff', { timeoutMs: 30_000 });
        expectTrue(diff.stdout.includes('--- a/notes.txt\n+++ b/notes.txt\n') && diff.stdout.includes('-two\n+TWO\n'), 'git diff is a unified diff', diff.stdout);
        const head = await sb.exec('git rev-parse --abbrev-ref HEAD', { timeoutMs: 30_000 });
        expectEqual(head.stdout, 'main\n', 'current branch');
      },
    },
  ];
}

/**
 * Runs every case on a fresh sandbox from `makeSandbox`, disposing it afterwards.
 * Never throws; each outcome says whether its case passed and why not.
 */
export async function runSandboxContract(
  makeSandbox: () => Promise<Sandbox>,
  cases: ContractCase[] = contractCases,
): Promise<ContractOutcome[]> {
  const outcomes: ContractOutcome[] = [];
  for (const c of cases) {
    const started = Date.now();
    let sb: Sandbox | undefined;
    try {
      sb = await makeSandbox();
      await c.run(sb);
      outcomes.push({ name: c.name, ok: true, ms: Date.now() - started });
    } catch (err) {
      outcomes.push({ name: c.name, ok: false, error: err instanceof Error ? err.message : String(err), ms: Date.now() - started });
    } finally {
      await sb?.dispose().catch(() => {});
    }
  }
  return outcomes;
}
