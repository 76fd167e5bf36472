/**
 * Global keyboard shortcuts for stepping. They apply only when focus is not in something that
 * takes typing (inputs, selects, the editor), and never with a modifier held.
 */
export type ShortcutActions = {
  step: () => void;
  run: () => void;
  pause: () => void;
  stop: () => void;
  /** Run to the next breakpoint. */
  continue?: () => void;
  /** Show the panels one event earlier. */
  stepBack?: () => void;
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
          : e.key === 'Escape'
            ? actions.stop
            : e.key === 'c'
              ? (actions.continue ?? null)
              : e.key === 'b' || (e.key === 'S' && e.shiftKey)
                ? (actions.stepBack ?? null)
                : null;
  if (!action) return;
  e.preventDefault();
  action();
}
