/**
 * The permission engine's shell parser (just-bash's, `sandbox/justbash/shell-parser.ts`), loaded
 * while the first model request is out instead of before the run. It brings ~670 kB of just-bash
 * to the judging thread (the runner's main thread, the page's: the sandbox has its own copy), and
 * the permission engine needs it only to judge a tool call, which comes from a model response.
 *
 * The headless runner (`cli/run-one.ts`) starts the load once the first request's body is sent
 * (`cli/request-sent.ts`; a scripted run at its first `model.request`) and waits for it before
 * taking the loop's next step after that request; the page wraps its run in
 * {@link judgedAfterParserLoads}, which does the same between pulls. Either way every call is
 * judged with the real parser, and nothing parser-related happens before the first request.
 */
import type { ShellParse, ShellParser } from '../harness/permissions/index.ts';
import type { TraceEvent } from '../harness/trace.ts';

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
  const load = () =>
    (loading ??= importParser().then((p) => {
      real = p;
    }));
  return {
    parser: {
      name: 'just-bash',
      // Unreachable while the runner or the gate keeps its order (a what-if asked on the page
      // before the first request is the exception): the port never throws, so this fails closed
      // (the engine asks), and starts the load so a second look finds the parser.
      parse: (command: string): ShellParse => {
        if (real) return real.parse(command);
        void load().catch(() => {});
        return { ok: false, error: 'the shell parser has not loaded yet' };
      },
    },
    load,
    get loaded() {
      return real !== undefined;
    },
  };
}

/**
 * `loop` as the page pulls it, in the runner's order: the first `model.request` starts loading the
 * parser (without waiting: the event goes on screen at once), and the event after it (the model's
 * answer, with the request already out) is handed on only once the parser is there. A tool call
 * is judged only after the response event, so none is judged before. A failed load throws at that
 * wait (the run fails and says why) rather than letting a call be judged without the parser.
 */
export async function* judgedAfterParserLoads<R>(loop: AsyncGenerator<TraceEvent, R>, shell: ShellParserOnDemand): AsyncGenerator<TraceEvent, R> {
  let requested = false;
  let step: IteratorResult<TraceEvent, R> | undefined;
  try {
    step = await loop.next();
    while (!step.done) {
      // The loop is suspended here: nothing it judges can run before this wait ends.
      if (requested && !shell.loaded) await shell.load();
      if (step.value.type === 'model.request' && !shell.loaded) {
        requested = true;
        void shell.load().catch(() => {});
      }
      yield step.value;
      step = await loop.next();
    }
    return step.value;
  } finally {
    // A consumer that stops pulling early (Reset, a dropped conversation) still ends the loop.
    if (step && !step.done) await loop.return(undefined as never);
  }
}
