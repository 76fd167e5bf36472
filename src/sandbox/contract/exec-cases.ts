/**
 * Contract cases for `exec`: the working and home directories, paths, exit codes, separate
 * streams, options, fresh shell state, truncation, timeouts, aborts and syntax errors.
 */
import { HOME_DIR, WORKDIR } from '../../harness/ports.ts';
import { BUSY_LOOP, abortAfter, errText, expectEqual, expectExit, expectTrue, preemptive } from './assert.ts';
import type { ContractCase } from './assert.ts';

export const execCases: ContractCase[] = [
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
];
