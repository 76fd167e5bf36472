/**
 * The prompt box's steering while a run works: messages go into the harness's `SteeringQueue`
 * (read by the loop at its next safe point); `queued` mirrors it for display. When a run ends
 * with messages still queued (it stopped, or hit its turn limit first), they come back as
 * `leftover` so the prompt box can offer them again instead of losing them.
 */
import * as agents from '../../harness/agents/index.ts';

export class SteeringBox {
  readonly queue = new agents.SteeringQueue();
  queued = $state.raw<readonly string[]>([]);
  leftover = $state<string | null>(null);

  constructor() {
    this.queue.subscribe((pending) => (this.queued = pending.map((m) => m.text)));
  }

  push(text: string): void {
    this.queue.push(text, 'user');
  }

  /** The run is over: what was never delivered goes back to the person. */
  runEnded(): void {
    const left = this.queue.clear();
    if (left.length > 0) this.leftover = left.map((m) => m.text).join('\n');
  }

  clear(): void {
    this.queue.clear();
    this.leftover = null;
  }
}
