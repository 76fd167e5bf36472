/**
 * The `TeamTransport` between tabs of one origin: a `BroadcastChannel` (also in Node, between
 * channels of one process, which the unit tests use). Notes are plain JSON; a note that is not a
 * `TeamWire` is dropped (another app on the same origin could post on the channel name).
 */
import { WIRE_KINDS as KINDS, type TeamTransport, type TeamWire } from '../harness/agents/index.ts';

function isWire(x: unknown): x is TeamWire {
  return typeof x === 'object' && x !== null && KINDS.has((x as { kind?: string }).kind ?? '') && typeof (x as { tab?: unknown }).tab === 'string';
}

export function broadcastTransport(channel = 'harness-playground-team'): TeamTransport {
  const bc = new BroadcastChannel(channel);
  const listeners = new Set<(w: TeamWire) => void>();
  bc.onmessage = (e: MessageEvent) => {
    if (!isWire(e.data)) return;
    for (const l of listeners) l(e.data);
  };
  return {
    post: (wire) => bc.postMessage(wire),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      listeners.clear();
      bc.close();
    },
  };
}
