/**
 * The page's shell parser for the permission check, bound as the headless runner binds it
 * (`run/shell-parser-on-demand.ts`): just-bash's own parser (`sandbox/justbash/shell-parser.ts`),
 * loaded on demand. Nothing parser-related happens before a run's first model request — not at
 * idle time, not in the first Step: the request starts the load (the event goes on screen at
 * once), and the pull after it waits until the parser is there, so every tool call is judged on
 * just-bash's AST. One per page: once loaded, later runs find it there.
 */
import type { TraceEvent } from '../../harness/trace.ts';
import { judgedAfterParserLoads, shellParserOnDemand, type ShellParserOnDemand } from '../../run/shell-parser-on-demand.ts';
import { shellParserModule } from './run-modules.ts';

let shell: ShellParserOnDemand | null = null;

function onDemand(): ShellParserOnDemand {
  return (shell ??= shellParserOnDemand(async () => (await shellParserModule()).justBashShellParser));
}

/** The port to bind (`PrepareOptions.shellParser`): fails closed (asks) until loaded, which the gate rules out for tool calls. */
export function pageShellParser(): ShellParserOnDemand['parser'] {
  return onDemand().parser;
}

/** The run as the page pulls it: the parser loads at its first model request and is awaited before the next pull. */
export function judgedWithPageParser<R>(loop: AsyncGenerator<TraceEvent, R>): AsyncGenerator<TraceEvent, R> {
  return judgedAfterParserLoads(loop, onDemand());
}

/**
 * Resolves once the page's parser is loaded (starting the load). For judging outside a run's
 * order — the Safety tab's what-if re-judges a call on a page where no request has gone out yet
 * (a restored session) — so the answer is just-bash's, never the fail-closed "ask" of a parser
 * still loading.
 */
export function pageShellParserReady(): Promise<void> {
  return onDemand().load();
}
