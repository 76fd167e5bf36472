/**
 * What the panels render of a run: the event log, the step-back cursor and everything derived
 * from the events on screen (conversation, permission stages, hooks, usage, the loop stage).
 * State only — the pulling lives in `run-puller.svelte.ts`, the actions in `run-controller.svelte.ts`.
 */
import { money } from './money.svelte.ts';
import type { RunResult, Sandbox, TraceEvent } from '../../harness/index.ts';
import { SessionGrants } from '../../harness/permissions/index.ts';
import { deriveConversation } from './conversation.ts';
import { derivePermissions, deriveHookRows } from './safety.ts';
import { captionOf, stageOf, type StageNode } from './stage.ts';
import { deriveUsage } from './usage.ts';
import { ENDED, type RunStatus, type SandboxInfo } from './run-types.ts';

export class RunView {
  status = $state<RunStatus>('idle');
  /** Every event of the session (follow-up runs append), immutable for cheap reactivity. */
  events = $state.raw<TraceEvent[]>([]);
  result = $state.raw<RunResult | null>(null);
  sandbox = $state.raw<Sandbox | null>(null);
  sandboxInfo = $state.raw<SandboxInfo | null>(null);
  /** What slow thing is happening before the first event ("Booting sandbox…"), or ''. */
  phase = $state('');
  /** A pull (or the start of a run) is in flight. */
  busy = $state(false);
  /** Why the last action could not happen, in words that say what to do. */
  notice = $state<string | null>(null);
  /** A stored session another tab is writing is shown: nothing runs here (SessionManager). */
  readOnly = $state(false);
  /**
   * The session that was open before a reload is being read back (SessionManager.init): nothing
   * may start until it is on screen, or a run started now would mix into the restored session.
   */
  restoring = $state(false);

  /** Step back: how many events the panels show (null: all of them). Moved by the stepper. */
  cursor = $state<number | null>(null);
  /** The events the panels render: the whole log, or the log up to the cursor. */
  shown = $derived(this.cursor === null ? this.events : this.events.slice(0, this.cursor));

  // At the end of the log of a run that is over, a call with no result was cut off, not pending.
  conversation = $derived(
    deriveConversation(this.shown, { settled: this.cursor === null && (this.status === 'aborted' || this.status === 'error' || this.status === 'done'), prices: money.prices }),
  );
  /** Permission stages per tool call, and the hooks timeline. */
  permissions = $derived(derivePermissions(this.shown));
  hookRows = $derived(deriveHookRows(this.shown));
  /** "Allow for this session" rules of this conversation; kept across follow-up runs, cleared on Reset. */
  readonly grants = new SessionGrants();
  /** The granted rules, for display (SessionGrants itself is not reactive). */
  grantedRules = $state.raw<string[]>([]);
  usage = $derived(deriveUsage(this.shown));
  lastEvent = $derived(this.shown.at(-1));
  stage = $derived<StageNode | null>(this.lastEvent ? stageOf(this.lastEvent) : null);
  caption = $derived(this.lastEvent ? captionOf(this.lastEvent) : '');
  ended = $derived(ENDED.includes(this.status));
}
