/**
 * Global keyboard shortcuts for stepping. They apply only when focus is not in something that
 * takes typing (inputs, selects, the editor), and never with a modifier held.
 */
import { grainOfKey, type Grain } from './stepper/grain.ts';
import { spaceOfKey, type Space } from './spaces/spaces.ts';

export type ShortcutActions = {
  step: () => void;
  run: () => void;
  pause: () => void;
  stop: () => void;
  /** Run to the next breakpoint. */
  continue?: () => void;
  /** Show the panels one event earlier. */
  stepBack?: () => void;
  /** Run to the next request (M), tool call (T), permission decision (D) or end of turn (E). */
  grain?: (grain: Grain) => void;
  /** Switch the workspace (keys 1–4: Learn, Inspect, Build, Team). */
  workspace?: (space: Space) => void;
};

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target.closest('input, textarea, select, [contenteditable], .monaco-editor') !== null;
}

export function handleShortcut(e: KeyboardEvent, actions: ShortcutActions): void {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  if (isTyping(e.target)) return;
  // A modal question (permission, trust) owns the keyboard while it is open.
  if (e.target instanceof Element && e.target.closest('dialog')) return;
  if (typeof document !== 'undefined' && document.querySelector('dialog[open]')) return;
  const action =
    e.key === 's' || e.key === '.'
      ? actions.step
      : e.key === 'r'
        ? actions.run
        : e.key === 'p'
          ? actions.pause
          : // Stop has its own key: Escape only ever closes drawers and dialogs (a learner
            // pressing it to close something must not abort a paused run).
            e.key === 'x'
            ? actions.stop
            : e.key === 'c'
              ? (actions.continue ?? null)
              : e.key === 'b' || (e.key === 'S' && e.shiftKey)
                ? (actions.stepBack ?? null)
                : null;
  const grain = actions.grain ? grainOfKey(e.key) : null;
  const space = actions.workspace ? spaceOfKey(e.key) : null;
  if (!action && !grain && !space) return;
  e.preventDefault();
  if (action) action();
  else if (grain) actions.grain?.(grain);
  else if (space) actions.workspace?.(space);
}
