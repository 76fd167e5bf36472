/**
 * Chromium driven from its browser process only, so a page loads as in a visitor's browser: the
 * first-screen bench's "no DevTools in the page" rows (`first-screen.ts`). No vitest imports (the
 * benches run under plain tsx).
 *
 * Why not Playwright: it attaches a DevTools session to every page and enables the `Runtime` domain
 * there, which makes V8 capture a detailed stack trace (with line and column) for every `Error`
 * constructed. Svelte builds one at load time (its `StaleReactionError`), and a stack position in
 * the entry's top-level code makes V8 re-parse the whole 1 MB script to find it: ~45 ms of the
 * page's main thread on every cold load (round 17, a build with a mark per module: the gap after
 * Svelte's `constants.js` was 37–50 ms under Playwright and 0.1 ms in a Chromium with no session on
 * the page; gone too with `--no-enable-lazy-source-positions`). The sandbox worker pays the same
 * for its script. A visitor without DevTools open pays none of it.
 *
 * Here the bench speaks the DevTools protocol over `--remote-debugging-pipe` to the browser target
 * alone: it creates a browser context (a fresh profile: empty HTTP cache and storage), opens a tab
 * in it, and reads what the page reports from the tab's title (`Target.getTargets`, answered by the
 * browser process). It attaches to a tab only to navigate it (the `Page` domain; `Runtime` is never
 * enabled) and detaches before the page's scripts run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

type Reply = { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; sessionId?: string };

export type PipeBrowser = {
  /** A DevTools command to the browser target (or to a tab's session when `sessionId` is given). */
  send(method: string, params?: Record<string, unknown>, sessionId?: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
};

/** Starts `executablePath` with `args` and a DevTools pipe; the profile folder is removed on close. */
export async function launchPipeBrowser(executablePath: string, args: readonly string[]): Promise<PipeBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'hp-pipe-profile-'));
  const child: ChildProcess = spawn(executablePath, [...args, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  let nextId = 1;
  let buffered = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end !== -1; end = buffered.indexOf('\0')) {
      const msg = JSON.parse(buffered.slice(0, end)) as Reply;
      buffered = buffered.slice(end + 1);
      if (msg.id === undefined) continue;
      const call = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) call?.reject(new Error(msg.error.message));
      else call?.resolve(msg.result ?? {});
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const call of pending.values()) call.reject(new Error('the browser exited'));
    pending.clear();
  });
  const send: PipeBrowser['send'] = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  // The pipe answers once the browser is up.
  await send('Browser.getVersion');
  return {
    send,
    async close() {
      await send('Browser.close').catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A fresh profile (browser context) with a blank tab in it: `{ contextId, targetId }`. */
export async function openBlankTab(browser: PipeBrowser): Promise<{ contextId: string; targetId: string }> {
  const { browserContextId } = (await browser.send('Target.createBrowserContext', { disposeOnDetach: false })) as { browserContextId: string };
  const { targetId } = (await browser.send('Target.createTarget', { url: 'about:blank', browserContextId })) as { targetId: string };
  return { contextId: browserContextId, targetId };
}

/**
 * Navigates the tab to `url`: attaches (the `Page` domain only), asks for the navigation and detaches
 * at once, so no DevTools session is on the page while it loads.
 */
export async function navigate(browser: PipeBrowser, targetId: string, url: string): Promise<void> {
  const { sessionId } = (await browser.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
  await browser.send('Page.navigate', { url }, sessionId);
  await browser.send('Target.detachFromTarget', { sessionId });
}

/** The tab's title once `accept` takes it (polled from the browser process every 25 ms), or an error after `timeoutMs`. */
export async function waitForTitle(browser: PipeBrowser, targetId: string, accept: (title: string) => boolean, timeoutMs = 60_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { targetInfos } = (await browser.send('Target.getTargets')) as { targetInfos: { targetId: string; title: string }[] };
    const title = targetInfos.find((t) => t.targetId === targetId)?.title ?? '';
    if (accept(title)) return title;
    if (Date.now() > until) throw new Error(`the page's title was still "${title}" after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
