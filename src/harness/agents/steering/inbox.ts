/**
 * Steering: messages the person types while the agent works. They are not sent at once (the
 * model is mid-call, or a tool is running); the loop reads this inbox at its safe point — after
 * the current tool results, before the next model call — and when the model would stop.
 *
 * `SteeringInbox` is the port; `SteeringQueue` is the live one the UI and the CLI push into, and
 * `scriptedSteering` replays messages a scenario fixed in advance, so a replay is exact.
 */

/** One queued message and where it came from. */
export type SteeringMessage = { text: string; source: 'user' | 'scenario' | 'file' };

/**
 * Contract: `take(beforeTurn)` returns (and removes) the messages to deliver before model call
 * number `beforeTurn` of this run; it never blocks and never throws. An empty list means nothing
 * is waiting. Messages come back in the order they were queued.
 */
export interface SteeringInbox {
  take(beforeTurn: number): SteeringMessage[];
}

/** The live queue: everything pushed so far goes out at the next safe point. */
export class SteeringQueue implements SteeringInbox {
  private items: SteeringMessage[] = [];
  private readonly listeners = new Set<(pending: readonly SteeringMessage[]) => void>();

  push(text: string, source: SteeringMessage['source'] = 'user'): void {
    const trimmed = text.trim();
    if (trimmed === '') return;
    this.items.push({ text: trimmed, source });
    this.changed();
  }

  take(): SteeringMessage[] {
    const out = this.items;
    this.items = [];
    if (out.length > 0) this.changed();
    return out;
  }

  get pending(): readonly SteeringMessage[] {
    return this.items;
  }

  /** Drops what is still queued (the run ended before a safe point); returns it. */
  clear(): SteeringMessage[] {
    return this.take();
  }

  /** Called with the queue's contents whenever they change (for a "queued" badge). */
  subscribe(listener: (pending: readonly SteeringMessage[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l(this.items);
  }
}

/** A message fixed in advance: delivered at the first safe point before model call `beforeTurn`. */
export type ScriptedSteer = { beforeTurn: number; message: string };

export function scriptedSteering(steers: readonly ScriptedSteer[], source: SteeringMessage['source'] = 'scenario'): SteeringInbox {
  const left = [...steers];
  return {
    take(beforeTurn) {
      const due = left.filter((s) => s.beforeTurn <= beforeTurn);
      for (const d of due) left.splice(left.indexOf(d), 1);
      return due.map((d) => ({ text: d.message, source }));
    },
  };
}

/** Several inboxes read as one (a scenario's script and the person's live queue). */
export function combinedInbox(inboxes: readonly SteeringInbox[]): SteeringInbox {
  return { take: (beforeTurn) => inboxes.flatMap((i) => i.take(beforeTurn)) };
}

/**
 * A steer file for the headless runner: one message per line, each delivered at its own safe
 * point in order (line 1 before model call 2, line 2 before call 3, …). `@N text` pins a line to
 * model call N. Blank lines and lines starting with `#` are skipped.
 */
export function parseSteerFile(text: string): { steers: ScriptedSteer[]; errors: string[] } {
  const steers: ScriptedSteer[] = [];
  const errors: string[] = [];
  let next = 2;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const pinned = /^@(\d+)\s+(.+)$/.exec(line);
    if (line.startsWith('@') && !pinned) {
      errors.push(`line ${i + 1}: "@" must be followed by a model-call number and the message, e.g. "@3 also update the README"`);
      return;
    }
    const beforeTurn = pinned ? Number(pinned[1]) : next;
    if (beforeTurn < 2) {
      errors.push(`line ${i + 1}: model call ${beforeTurn} has no safe point before it (the prompt is call 1); use 2 or more`);
      return;
    }
    steers.push({ beforeTurn, message: pinned ? pinned[2]! : line });
    next = beforeTurn + 1;
  });
  return { steers, errors };
}

/** The user-side text that carries a steering message to the model. */
export function steeringText(m: SteeringMessage): string {
  return `The user sent a message while you were working:\n${m.text}\n\nTake it into account from now on; if it changes the task, adjust your plan before continuing.`;
}
