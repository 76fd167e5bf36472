/**
 * The run's modules that load on demand (the first screen does not carry them): the frame JS hook
 * runner, the page tool runner and the shell parser of the permission check. A run only awaits
 * the runners its scenario uses, and the page starts loading those at idle time after the first
 * paint, so the first Step does not wait for chunks to download and parse. The parser (just-bash's
 * ESM build, ~0.65 MB on the page's thread) is never prefetched: it loads while the run's
 * first model request is out, and the run waits for it only before judging a tool call
 * (`page-shell-parser.ts`).
 */
import { whenIdle } from '../lib/idle.ts';

type FrameRunnerModule = typeof import('../../hooks-runtime/frame-runner.ts');
type PageToolModule = typeof import('../tools/page-tool-runner.ts');
type ShellParserModule = typeof import('../../sandbox/justbash/shell-parser.ts');

let frameRunner: Promise<FrameRunnerModule> | null = null;
let pageTools: Promise<PageToolModule> | null = null;
let shellParser: Promise<ShellParserModule> | null = null;

/** The JS hook runner's module, loaded once per page. */
export function frameRunnerModule(): Promise<FrameRunnerModule> {
  return (frameRunner ??= import('../../hooks-runtime/frame-runner.ts'));
}
/** The custom-tool runner's module, loaded once per page. */
export function pageToolModule(): Promise<PageToolModule> {
  return (pageTools ??= import('../tools/page-tool-runner.ts'));
}

/**
 * just-bash's own parser for the permission check (`ShellParser`), as the CLI binds it: the page's
 * build takes it from just-bash's ESM build (`sandbox/justbash/split-build.ts`; `vite dev` from its browser bundle, `parser-export.ts`). Loaded
 * once per page, never on the first screen.
 */
export function shellParserModule(): Promise<ShellParserModule> {
  return (shellParser ??= import('../../sandbox/justbash/shell-parser.ts'));
}

/**
 * A `type: js` hook anywhere in what the run reads: settings objects, `.claude/settings.json` text
 * (JSON inside a JSON string, so quotes may be escaped) or an agent's YAML frontmatter.
 */
const JS_HOOK = /\btype\\?["']?\s*:\s*\\?["']?js\b/;

/** What decides which modules a run needs: the scenario's settings and files, the user scope, live or not. */
export interface RunNeeds {
  /** The scenario's harness settings (hooks, custom tools). */
  settings: unknown;
  /** The scenario's files (a project `.claude/settings.json` can bring hooks). */
  files: unknown;
  /** The imported user scope, if any. */
  userSettings?: unknown;
  /** A live run: tools saved in the Tools tab during it join its next request, so it always needs the tool runner. */
  live: boolean;
  /** Number of custom tools the scenario defines. */
  customTools: number;
}

/** Whether a run could fire a JS hook (false only when nothing it reads mentions one). */
export function needsJsHooks(n: RunNeeds): boolean {
  return JS_HOOK.test(JSON.stringify([n.settings, n.files, n.userSettings ?? null]));
}
/** Whether a run could call a custom JS tool. */
export function needsToolRunner(n: RunNeeds): boolean {
  return n.live || n.customTools > 0;
}

/**
 * Start loading what a run of this scenario will need before its first event, when the browser is
 * idle (after the first paint), so the first Step finds it ready. Loading is idempotent: the run
 * awaits the same promises. Not the shell parser: no Step before the first model request needs it.
 */
export function prefetchRunModules(n: RunNeeds): void {
  const go = () => {
    if (needsJsHooks(n)) void frameRunnerModule();
    if (needsToolRunner(n)) void pageToolModule();
  };
  whenIdle(go, 2000);
}
