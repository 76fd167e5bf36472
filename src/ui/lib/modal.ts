/**
 * Keeps a modal `<dialog>` in step with whether there is a question to ask: opens it (modal, so
 * the page behind is inert) with the focus on the element `focus` selects, and closes it once
 * the question is gone. Call it from an `$effect`, which runs it again when either changes.
 */
export function syncModal(dialog: HTMLDialogElement | undefined, open: boolean, focus: string, onopen?: () => void): void {
  if (!dialog) return;
  if (open && !dialog.open) {
    onopen?.();
    dialog.showModal();
    dialog.querySelector<HTMLElement>(focus)?.focus();
  } else if (!open && dialog.open) dialog.close();
}
