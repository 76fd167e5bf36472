/**
 * The bridge between the permission pipeline's `prompt` callback and the dialog. The pipeline
 * awaits `ask()`; the dialog shows `pending` and calls `answer()`. While a question is pending the
 * generator's `next()` is pending too, so Run and Step simply wait on the person.
 * Only one question exists at a time: the loop checks calls one by one.
 */
import type { PromptAnswer, PromptRequest } from '../../harness/permissions/index.ts';

export type PendingPrompt = { request: PromptRequest; resolve: (a: PromptAnswer) => void };

export class PermissionPrompts {
  pending = $state.raw<PendingPrompt | null>(null);

  /** Called before a question is shown (the controller flushes buffered events, so the UI is current). */
  constructor(private readonly beforeAsk: () => void = () => {}) {}

  ask = (request: PromptRequest): Promise<PromptAnswer> => {
    // A question still open (should not happen) is denied rather than left hanging.
    this.cancel('a newer question replaced it');
    this.beforeAsk();
    return new Promise<PromptAnswer>((resolve) => {
      this.pending = { request, resolve };
    });
  };

  answer(a: PromptAnswer): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    p.resolve(a);
  }

  /** Deny the open question (Stop, Reset): the run must not wait on a dialog no one will answer. */
  cancel(why: string): void {
    if (this.pending) this.answer({ decision: 'deny', message: why });
  }
}
