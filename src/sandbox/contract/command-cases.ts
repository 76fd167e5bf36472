/**
 * Contract case for just-bash's commands as they are packaged: each one's code loads on its first
 * use (a chunk of its own in the ESM build the CLI, the page and the worker all run, see
 * `../justbash/split-build.ts`), so a command whose chunk cannot load or cannot run where it is
 * bundled would fail only when an agent first calls it. This runs every command in `/bin` once.
 */
import { expectTrue } from './assert.ts';
import type { ContractCase } from './assert.ts';

/** What a command that could not load (or reached a Node-only path) prints, in Chromium and in Node. */
const LOAD_FAILURE =
  /dynamically imported module|Failed to fetch|Importing a module script failed|error loading|Cannot find (module|package)|is not defined|not available in (the )?browser|require\(|internal error/i;

export const commandCases: ContractCase[] = [
  {
    name: "every just-bash command in /bin loads and answers --help (commands load on demand)",
    async run(sb) {
      // WebContainer's /bin holds real programs; this is about just-bash's packaging.
      if (sb.kind !== 'just-bash') return;
      const names = (await sb.exec('ls /bin')).stdout.split('\n').filter(Boolean);
      expectTrue(names.length >= 40, 'ls /bin lists just-bash\'s commands', names);
      const failed: string[] = [];
      for (const name of names) {
        const r = await sb.exec(`${name} --help < /dev/null`, { timeoutMs: 10_000 });
        const text = `${r.stdout}\n${r.stderr}`;
        if (r.timedOut || LOAD_FAILURE.test(text)) failed.push(`${name}: ${r.timedOut ? 'timed out' : text.trim().split('\n').slice(0, 2).join(' / ')}`);
      }
      expectTrue(failed.length === 0, `every command loads (${names.length} in /bin)`, failed);
    },
  },
];
