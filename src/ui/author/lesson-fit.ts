/**
 * Whether the run on screen is still the replay a lesson was written for. A lesson's notes and
 * questions are pinned to event numbers of its scripted replay; a run with a live model, a prompt
 * of the person's own, or a replay that diverged (a tool returned what the recording never saw)
 * has other events at those numbers, so what the lesson says there would be false.
 */
import type { TraceEvent } from '../../harness/index.ts';
import { textOf } from '../../harness/messages.ts';
import type { ScenarioV1 } from '../../scenarios/schema-v1.ts';

/** `upTo`: the last event count the lesson still fits (null: the whole run); `why`: in words. */
export type LessonFit = { upTo: number | null; why: string | null };

export const FITS: LessonFit = { upTo: null, why: null };

type LessonScript = Pick<ScenarioV1, 'prompts' | 'steps'> & { settings?: { steering?: readonly { message: string }[] } };

/**
 * Where `events` stop being the replay of `doc`: its prompts in order and its own queued
 * (steering) messages are its script; a divergence is part of it when the lesson is about one
 * (a note anchored on `replay.diverged`).
 */
export function lessonFit(doc: LessonScript, events: readonly TraceEvent[]): LessonFit {
  const prompts = doc.prompts;
  const steering = (doc.settings?.steering ?? []).map((s) => s.message.trim());
  const divergesByDesign = doc.steps.some((s) => s.atEventType === 'replay.diverged');
  let sent = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const at = (why: string): LessonFit => ({ upTo: i, why: `from event ${i + 1} on, ${why}` });
    // Every scripted client is named `scripted…`; anything else answered with a real model.
    if (e.type === 'run.start' && !e.modelClient.startsWith('scripted')) return at(`this run uses a live model (${e.model}), not the scripted replay the lesson was written for`);
    if (e.type === 'message.appended' && e.origin === 'user' && e.agentId === 'main') {
      const text = textOf(e.message);
      if (steering.some((m) => text.includes(m))) continue;
      const expected = prompts[sent++];
      if (expected === undefined || !text.includes(expected.trim())) return at('the prompt is not the lesson’s, so the run is not its replay');
    }
    if (e.type === 'replay.diverged' && !divergesByDesign) return at('the replay diverged: a tool returned what the lesson’s recording never saw');
  }
  return FITS;
}
