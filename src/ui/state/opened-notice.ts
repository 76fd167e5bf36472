/**
 * What the page says once about a session it has just opened (resume or fork): whether the last
 * run was cut off, what the replay repaired, that grants are not restored, and whether the
 * session's scenario is still in the library.
 */
import { GRANTS_NOT_RESTORED } from '../../harness/session/light.ts';

/** What is said about the session on screen after opening it. */
export type OpenedNotice = {
  mode: 'resume' | 'fork';
  title: string;
  /** The last run was cut off; its unanswered tool calls were closed as "interrupted". */
  interrupted: boolean;
  repairs: string[];
  /** Grants are not restored (always). */
  grants: string;
  /** The session's scenario is not in the library any more. */
  scenarioMissing: string | null;
  /** What came back of the workbench saved with the session (or that its record is damaged). */
  workbench: string | null;
};

export function openedNoticeOf(o: {
  mode: 'resume' | 'fork';
  title: string;
  replay: { interrupted: boolean; repairs: string[] };
  /** The scenario the session was recorded with, when it is not loaded now. */
  missingScenarioId: string | null;
  /** The scenario a follow-up runs with instead. */
  currentTitle: string;
  workbench?: string | null;
}): OpenedNotice {
  return {
    mode: o.mode,
    title: o.title,
    interrupted: o.replay.interrupted,
    repairs: o.replay.repairs,
    grants: GRANTS_NOT_RESTORED,
    scenarioMissing: o.missingScenarioId
      ? `This session was recorded with the scenario "${o.missingScenarioId}", which is not loaded now: a follow-up runs with "${o.currentTitle}"'s tools, settings and model.`
      : null,
    workbench: o.workbench ?? null,
  };
}
