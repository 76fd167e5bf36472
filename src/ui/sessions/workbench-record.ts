/**
 * The workbench a session ran with, kept in its log as a `session.workbench` record: the edited
 * scenario (custom tools, golden cases, hooks and rules edited in the page, an imported
 * `.claude/`) and its origin, so a reload or a fork brings back *that* scenario, not the
 * library's. A record is written only when the workbench differs from the last one (or, for a new
 * session, from the library's version), so an unedited built-in adds nothing to the log.
 *
 * Read back, a record is checked like any stored input (the scenario schema, a known origin);
 * a damaged one is reported, never half-used. Trust travels with the origin: a link's or a file's
 * scenario is restored as such and goes through the trust question again (its trust key is of the
 * restored content), and a session imported from a JSONL file is outside content whatever its
 * records say (`asImportedLog`). Pure (unit-tested in test/unit/ui-workbench-record.test.ts). Reading
 * a record back (`latestWorkbench`, with the schemas) is in `workbench-read.ts`, loaded on demand.
 */
import type { SessionLogEvent } from '../../harness/session/light.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import type { ScenarioOrigin } from '../state/trust-gate.svelte.ts';

export type Workbench = { scenario: Scenario; origin: ScenarioOrigin };

type WorkbenchMarker = Extract<SessionLogEvent, { type: 'session.workbench' }>;

/** Equal keys: the same workbench (what decides whether a new record is needed). */
export function workbenchKey(w: Workbench): string {
  return JSON.stringify({ origin: w.origin, scenario: w.scenario });
}

export function workbenchMarker(w: Workbench, ts: number): WorkbenchMarker {
  return { type: 'session.workbench', ts, workbench: { version: 1, origin: w.origin, scenario: w.scenario } };
}

export type LatestWorkbench =
  | { kind: 'none' }
  | { kind: 'ok'; workbench: Workbench; seq: number }
  /** The newest record is damaged: nothing of it is used. `seq` is its log seq, `raw` the record. */
  | { kind: 'damaged'; seq: number; problem: string; raw: unknown };

/**
 * An imported log is outside content, all of it: its workbench records are re-tagged as imported,
 * and it starts with one (the workbench in the page when it was imported, `current`, unless the
 * file's first entry is one), marked `imported: true`. So it never opens under a built-in's trust,
 * and `isImportedLog` knows it for good — a fork copies that first entry, and later records the page
 * writes do not unmark it.
 */
export function asImportedLog(events: readonly SessionLogEvent[], current: Workbench, ts = 0): SessionLogEvent[] {
  const tagged = events.map((e) => (e.type === 'session.workbench' ? { ...e, workbench: { ...e.workbench, origin: 'import', imported: true } } : e));
  if (tagged[0]?.type === 'session.workbench') return tagged;
  const first = workbenchMarker({ scenario: current.scenario, origin: 'import' }, ts);
  return [{ ...first, workbench: { ...first.workbench, imported: true } }, ...tagged];
}

/** Whether the log came in from a file (`asImportedLog`): its sandbox files are outside content too. */
export function isImportedLog(log: readonly SessionLogEvent[]): boolean {
  return log.some((e) => e.type === 'session.workbench' && e.workbench.imported === true);
}

/**
 * The workbench an imported session opens with: its scenario with the files of the session's
 * latest snapshot folded in, as an import — so the trust question lists what those files carry
 * (`.claude/settings.json`, `.mcp.json`, …) and nothing of them acts before the answer.
 */
export function importedWorkbench(scenario: Scenario, snapshotFiles: Readonly<Record<string, string>>): Workbench {
  return { scenario: { ...scenario, files: { ...scenario.files, ...snapshotFiles } }, origin: 'import' };
}

/** What the page says about the workbench it restored (null: there was nothing to restore). */
export function restoredWorkbenchText(w: LatestWorkbench): string | null {
  if (w.kind === 'none') return null;
  if (w.kind === 'damaged') {
    return `The workbench saved with this session (log entry ${w.seq}) is damaged (${w.problem}), so the scenario opened as the library has it; the raw record is in the damaged-records list.`;
  }
  const s = w.workbench.scenario.settings;
  const parts = [
    s.customTools?.length ? `${s.customTools.length} custom tool${s.customTools.length === 1 ? '' : 's'}` : '',
    s.golden?.length ? `${s.golden.length} golden case${s.golden.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  const what = parts.length ? `${parts.join(', ')} and the settings` : 'the settings';
  const trust = w.workbench.origin === 'builtin' ? '' : ' It came from outside the app, so nothing in it that can act runs until you trust it.';
  return `The workbench came back as it was: ${what} of “${w.workbench.scenario.title}”.${trust}`;
}
