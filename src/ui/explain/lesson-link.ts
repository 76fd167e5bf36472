/**
 * Links into the course: `#lesson=<id>` opens a built-in lesson, `&step=<n>` steps it to log
 * seq n. Parsing is strict (a lower-case id, a positive step) so a hand-edited hash cannot do
 * anything but open a lesson that exists.
 */
import { builtins } from '../state/builtins.svelte.ts';

export function lessonHref(id: string, step?: number): string {
  return `#lesson=${encodeURIComponent(id)}${step ? `&step=${step}` : ''}`;
}

export function lessonTitle(id: string): string {
  return builtins.docs.find((d) => d.id === id)?.title ?? id;
}

export type LessonLink = { id: string; step: number | null };

/** `#lesson=<id>[&step=<n>]` → the link, or null for any other hash (or a lesson that does not exist; the page parses once the library is loaded). */
export function parseLessonHash(hash: string): LessonLink | null {
  const m = /^#lesson=([a-z0-9-]{1,64})(?:&step=([1-9]\d{0,5}))?$/.exec(hash);
  if (!m || !builtins.docs.some((d) => d.id === m[1])) return null;
  return { id: m[1]!, step: m[2] ? Number(m[2]) : null };
}
