/**
 * Contract cases for the runtimes an agent reaches for first on a JavaScript project: `node`,
 * `npm` and `git`.
 */
import { abortAfter, errText, expectEqual, expectExit, expectTrue, preemptive } from './assert.ts';
import type { ContractCase } from './assert.ts';

/**
 * `node`, `npm` and `git`, which agents reach for first on a JavaScript project. just-bash
 * provides them itself (QuickJS and isomorphic-git); in WebContainer they are the real
 * programs. Checks stick to what both print (e.g. `fail 1` is in Node's TAP and spec reports).
 */
export function runtimeCases(): ContractCase[] {
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
