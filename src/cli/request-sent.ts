/**
 * When the runner's next HTTP request has left: Node's fetch (undici) publishes on a diagnostics
 * channel once a request's body is written to the socket. `runOne` starts loading the shell parser
 * there (`run/shell-parser-on-demand.ts`), so the parser's compile — tens of ms of this thread —
 * never runs between the loop's `model.request` and the bytes leaving. Node only: the page starts
 * the same load at the `model.request` event (`ui/state/page-shell-parser.ts`).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** What Node's fetch (undici) publishes once a request's body is written to the socket. */
const BODY_SENT = 'undici:request:bodySent';

/**
 * Calls `start` once the next HTTP request's body is on the wire (a live run's first model
 * request), so the parser's compile — tens of ms of this thread — never runs between the loop's
 * `model.request` and the bytes leaving (where `runOne` used to start it, it could land before the
 * socket write). `stop` unsubscribes without starting (a run that ends before any request).
 */
export function startAfterNextRequestSent(start: () => void): { stop(): void } {
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    // Not from inside the publish loop that is calling us.
    queueMicrotask(() => unsubscribe(BODY_SENT, onSent));
  };
  const onSent = () => {
    if (done) return;
    stop();
    start();
  };
  subscribe(BODY_SENT, onSent);
  return { stop };
}
