/**
 * `UserCodeRuntime` for the browser: one hidden `sandbox="allow-scripts"` srcdoc iframe (no
 * allow-same-origin, so its origin is opaque: no IndexedDB, localStorage, cookies or caches of the
 * app, and no reach into the app's page), with its own Content-Security-Policy that forbids every
 * load and connection (`framePolicy`). Each job runs in a fresh Worker the frame starts from a
 * blob:, which inherits that policy; `stop()` makes the frame terminate it, so a busy loop ends at
 * once and the page never stalls (the loop is on the worker's thread, not the page's).
 *
 * Only messages whose `source` is the frame's window and that parse as `FrameReply` are read;
 * replies to jobs that were stopped are dropped.
 */
import { FRAME_SCRIPT, framePolicy } from './frame-script.ts';
import { CHANNEL, parseFrameReply, type CancelRequest, type PostRequest, type RunRequest } from './protocol.ts';
import type { UserCodeJob, UserCodeListener, UserCodeRuntime } from './types.ts';

/** How long the frame may take to say `ready` before its pending jobs fail (a cold, busy tab). */
const BOOT_TIMEOUT_MS = 15_000;

async function scriptHash(text: string): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new Error('the user-code sandbox needs a secure context: open the app over https or on localhost');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let bin = '';
  for (const b of new Uint8Array(digest)) bin += String.fromCharCode(b);
  return `sha256-${btoa(bin)}`;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The frame's document: its policy first, then its one inline script (allowed by hash). */
export async function frameDocument(): Promise<string> {
  const policy = framePolicy(await scriptHash(FRAME_SCRIPT));
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeAttr(policy)}"></head><body><script>${FRAME_SCRIPT}</script></body></html>`;
}

type Frame = { iframe: HTMLIFrameElement; ready: Promise<Window>; onMessage: (e: MessageEvent) => void };

export function createFrameRuntime(doc: Document = document): UserCodeRuntime {
  const jobs = new Map<string, UserCodeListener>();
  let frame: Frame | null = null;
  let seq = 0;

  const drop = (id: string) => jobs.delete(id);

  function boot(): Frame {
    const iframe = doc.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('data-testid', 'user-code-frame');
    iframe.title = 'User code sandbox';
    iframe.hidden = true;
    iframe.tabIndex = -1;
    iframe.setAttribute('aria-hidden', 'true');
    let markReady: (w: Window) => void = () => {};
    let markFailed: (e: Error) => void = () => {};
    const ready = new Promise<Window>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    const timer = setTimeout(
      () => markFailed(new Error(`the user-code sandbox frame did not start within ${BOOT_TIMEOUT_MS / 1000} s (is its script blocked by the page's Content-Security-Policy?)`)),
      BOOT_TIMEOUT_MS,
    );
    const onMessage = (e: MessageEvent) => {
      if (!iframe.contentWindow || e.source !== iframe.contentWindow) return;
      const reply = parseFrameReply(e.data);
      if (!reply) return;
      if (reply.kind === 'ready') {
        clearTimeout(timer);
        markReady(iframe.contentWindow);
        return;
      }
      const listener = jobs.get(reply.id);
      if (!listener) return;
      if (reply.kind === 'message') listener.message(reply.payload);
      else {
        drop(reply.id);
        listener.error(reply.payload.message);
      }
    };
    doc.defaultView?.addEventListener('message', onMessage);
    void frameDocument().then(
      (html) => {
        iframe.srcdoc = html;
        doc.body.appendChild(iframe);
      },
      (e: unknown) => markFailed(e instanceof Error ? e : new Error(String(e))),
    );
    return { iframe, ready, onMessage };
  }

  function teardown(): void {
    if (!frame) return;
    doc.defaultView?.removeEventListener('message', frame.onMessage);
    frame.iframe.remove();
    frame = null;
  }

  function post(win: Window, m: RunRequest | CancelRequest | PostRequest): void {
    // The frame's origin is opaque ("null"), so no target origin can name it; `win` is our own frame.
    win.postMessage(m, '*');
  }

  return {
    start(job, on): UserCodeJob {
      const id = `job-${++seq}`;
      jobs.set(id, on);
      frame ??= boot();
      const current = frame;
      current.ready.then(
        (win) => {
          if (!jobs.has(id)) return;
          try {
            post(win, { channel: CHANNEL, id, kind: 'run', payload: { source: job.source, data: job.data } });
          } catch (e) {
            // e.g. a DataCloneError: data that cannot be copied into the sandbox.
            drop(id);
            on.error(`the job could not be sent to the sandbox: ${e instanceof Error ? e.message : String(e)}`);
          }
        },
        (e: Error) => {
          // A frame that never started is replaced on the next job.
          if (frame === current) teardown();
          if (drop(id)) on.error(e.message);
        },
      );
      return {
        post(value) {
          if (!jobs.has(id)) return;
          void current.ready.then(
            (win) => {
              if (!jobs.has(id)) return;
              try {
                post(win, { channel: CHANNEL, id, kind: 'post', payload: value });
              } catch (e) {
                drop(id);
                on.error(`a message could not be sent to the sandbox: ${e instanceof Error ? e.message : String(e)}`);
              }
            },
            () => undefined,
          );
        },
        stop() {
          if (!drop(id)) return;
          void current.ready.then((win) => post(win, { channel: CHANNEL, id, kind: 'cancel' }), () => undefined);
        },
      };
    },
    dispose() {
      jobs.clear();
      teardown();
    },
  };
}
