/**
 * The runner's shell parser (just-bash's, `sandbox/justbash/shell-parser.ts`), loaded while the
 * first request is out instead of before it. On this thread it brings ~670 kB of just-bash
 * (the sandbox thread has its own copy), the largest piece left on the path to the first request
 * (issue 23 §3). The permission engine needs it only to judge a tool call, and a tool call comes
 * from a model response: `runOne` starts the load when it sees the first `model.request` and waits
 * for it before taking the loop's next step, so every call is judged with it.
 */
import type { ShellParse, ShellParser } from '../harness/permissions/index.ts';

export type ShellParserOnDemand = {
  /** The port to bind: just-bash's parser once loaded. */
  parser: ShellParser;
  /** Starts loading (once); resolves when `parser` is the real one. */
  load(): Promise<void>;
  readonly loaded: boolean;
};

export function shellParserOnDemand(importParser: () => Promise<ShellParser> = async () => (await import('../sandbox/justbash/shell-parser.ts')).justBashShellParser): ShellParserOnDemand {
  let real: ShellParser | undefined;
  let loading: Promise<void> | undefined;
  return {
    parser: {
      name: 'just-bash',
      // Unreachable while `runOne` keeps its order; the port never throws, so this fails closed (the engine asks).
      parse: (command: string): ShellParse => real?.parse(command) ?? { ok: false, error: 'the shell parser has not loaded yet' },
    },
    load() {
      loading ??= importParser().then((p) => {
        real = p;
      });
      return loading;
    },
    get loaded() {
      return real !== undefined;
    },
  };
}
