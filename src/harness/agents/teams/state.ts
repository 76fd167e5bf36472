/**
 * Each teammate's small state machine. `idle` → `working` (a message or a claimed task woke it)
 * → `idle` again, or `waiting` (it sent a request and its turn ended before the answer), or
 * `done` (nothing left on the board, or its loop ended with an error), or `shut_down` (it
 * approved a shutdown request, or the team was stopped). s10's rule: a teammate that is waiting
 * for an answer sends no second request.
 */
export type TeammateState = 'idle' | 'working' | 'waiting' | 'done' | 'shut_down' | 'gone';

const NEXT: Record<TeammateState | 'new', readonly TeammateState[]> = {
  new: ['idle'],
  idle: ['working', 'done', 'shut_down', 'gone'],
  working: ['idle', 'waiting', 'done', 'shut_down', 'gone'],
  waiting: ['working', 'idle', 'shut_down', 'gone'],
  // A done teammate wakes again when a message arrives (new tasks, a question).
  done: ['working', 'shut_down', 'gone'],
  shut_down: [],
  gone: [],
};

export function canMove(from: TeammateState | 'new', to: TeammateState): boolean {
  return NEXT[from].includes(to);
}

export function isFinal(s: TeammateState): boolean {
  return s === 'shut_down' || s === 'gone';
}
