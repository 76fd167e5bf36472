/**
 * The runner's shell parser (just-bash's, `sandbox/justbash/shell-parser.ts`), loaded while the
 * first request is out instead of before it. On this thread it brings ~670 kB of just-bash
 * (the sandbox thread has its own copy), the largest piece left on the path to the first request
 * (issue 23 §3). The permission engine needs it only to judge a tool call, and a tool call comes
 * from a model response: `runOne` starts the load once the first request has been sent (a live
 * run: `startAfterNextRequestSent`; a scripted one at its first `model.request`) and waits for it
 * before taking the loop's next step after that request, so every call is judged with it.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
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

/** What Node's fetch (undici) publishes once a request's body is written to the socket. */
const BODY_SENT = 'undici:request:bodySent';

/**
 * Calls `start` once the next HTTP request's body is on the wire (a live run's first model
 * request), so the parser's compile — tens of ms of this thread — never runs between the loop's
 * `model.request` and the bytes leaving (where `runOne` used to start it, it could land before the
 * socket write). `stop` unsubscribes without starting (a run that ends before any request).
 */
export function startAfterNextRequestSent(start: () => void): { stop(): void } {
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    // Not from inside the publish loop that is calling us.
    queueMicrotask(() => unsubscribe(BODY_SENT, onSent));
  };
  const onSent = () => {
    if (done) return;
    stop();
    start();
  };
  subscribe(BODY_SENT, onSent);
  return { stop };
}
