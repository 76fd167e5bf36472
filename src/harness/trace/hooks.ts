/**
 * Trace events of hooks (see `src/harness/hooks/README.md`): each hook run with its input, output
 * and decision, background hooks starting, and hook settings that cannot work.
 * Joined into `TraceEvent` in `../trace.ts`.
 */
import type { HookEventName } from '../hooks/config.ts';

/** Which hook a hook event is about: its command, prompt, URL or JS hook name. */
export type HookRef =
  | { type: 'command'; command: string }
  | { type: 'prompt'; prompt: string }
  | { type: 'http'; url: string }
  | { type: 'js'; name: string };

/** Hook events. */
export type HookEventBody =
  | {
      /** One hook finished (or timed out). Hooks of one event run in parallel; each reports as it ends. */
      type: 'hook.run';
      event: HookEventName;
      /** The matcher of the group the hook came from (`''` when the group had none). */
      matcher: string;
      hook: HookRef;
      /** The JSON given to the hook on stdin (or as the JS hook's argument). */
      input: unknown;
      exitCode: number;
      stdout: string;
      stderr: string;
      timedOut: boolean;
      /**
       * What this hook contributed: a permission decision, `block` (exit 2 or `decision: "block"`),
       * `stop` (`continue: false`), `continue` (it failed or timed out, the agent goes on), `none`.
       */
      decision?: 'allow' | 'deny' | 'ask' | 'block' | 'stop' | 'continue' | 'none';
      reason?: string;
      ms: number;
      /** An http hook's answer status (absent when no answer came). */
      status?: number;
      /** An http hook the client would not call (an origin the user did not allow): stderr says why. */
      refused?: boolean;
      /**
       * A background (`async` / `asyncRewake`) hook finished; it was started at `hook.async_started`
       * and could not block anything. Its context reaches the model at the next safe point; `rewake`
       * is set when its exit 2 woke the agent.
       */
      background?: { id: string; rewake: boolean };
    }
  | {
      /** An `async` / `asyncRewake` command hook started in the background; the event went on without it. */
      type: 'hook.async_started';
      id: string;
      event: HookEventName;
      matcher: string;
      hook: HookRef;
      rewake: boolean;
    }
  | {
      /** A hooks setting that cannot work (e.g. a matcher that is not a valid regex); reported once. */
      type: 'hook.config_error';
      event: HookEventName;
      matcher: string;
      message: string;
    };
