/**
 * The page's state as `App.svelte` builds it (`createPageState`), with in-memory stores: the run
 * controller's hooks reach the session recording (runs and user events are written), and a reset
 * replaces the conversation whole — every field of the new `RunState` is a fresh one's, and every
 * value the controller shows equals a freshly built page's, so a per-run field kept anywhere else
 * (and forgotten by reset) fails here.
 */
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { realClock } from '../../src/harness/clock.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import type { PageState } from '../../src/ui/state/page-state.svelte.ts';
import { RunController } from '../../src/ui/state/run-controller.svelte.ts';
import { RunState } from '../../src/ui/state/run-state.svelte.ts';
import { SCRIPTED_CHUNK_DELAY_MS } from '../../src/ui/state/settings.svelte.ts';
import { stubLocalStorage } from '../helpers/local-storage.ts';
import { memoryPageState } from '../helpers/page-state.ts';

// The page's settings read this browser's saved preferences: an empty storage here.
beforeAll(stubLocalStorage);

function page(): { page: PageState; store: MemorySessionStore } {
  const { page: p, store } = memoryPageState();
  // Lesson 1 asks questions on the way: Run plays through them here.
  p.lesson.setHoldAtQuestions(false);
  return { page: p, store };
}

/** A value compared by content: primitives, null, arrays and plain objects (not class instances such as a sandbox). */
const plain = (v: unknown) => v === null || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype;

/** Every accessor a class declares (rune fields compile to accessors on the prototype). */
const accessors = (proto: object) =>
  Object.entries(Object.getOwnPropertyDescriptors(proto))
    .filter(([, d]) => d.get)
    .map(([k]) => k);

describe('createPageState', () => {
  test('a run and a user edit reach the session store through the controller’s hooks', async () => {
    const { page: p, store } = page();
    const { ctl, sessions } = p;
    await ctl.run();
    expect(ctl.status).toBe('done');
    await ctl.recordUserChange(['notes.txt']);
    await sessions.flush();
    const current = sessions.current;
    expect(current).not.toBeNull();
    const log = await store.load(current!.id);
    expect(log.ok).toBe(true);
    const written = log.ok ? log.value.filter((e) => e.type === 'sandbox.changed' && 'origin' in e && e.origin === 'user') : [];
    expect(written).toHaveLength(1);
    expect(log.ok && log.value.some((e) => e.type === 'run.end')).toBe(true);
  });

  test('reset replaces the run state whole: nothing of the last conversation survives', async () => {
    const { page: p } = page();
    const { ctl, sessions } = p;
    await ctl.run();
    ctl.cursor = 2;
    ctl.takenOver = true;
    const old = ctl.state;
    expect(old.events.length).toBeGreaterThan(0);
    expect(old.lastModel).not.toBeNull();

    await ctl.reset();
    expect(ctl.state).not.toBe(old);
    // The reset ended the session being written (the recording's `runReset` hook).
    expect(sessions.current).toBeNull();

    const fresh = new RunState() as unknown as Record<string, unknown>;
    const now = ctl.state as unknown as Record<string, unknown>;
    const before = old as unknown as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(fresh), ...accessors(RunState.prototype)])].filter((k) => k !== 'sandboxReady');
    expect(fields).toEqual(expect.arrayContaining(['events', 'status', 'cursor', 'takenOver', 'grants', 'steering', 'files', 'lastModel', 'memoryText']));
    for (const k of fields) {
      if (plain(fresh[k])) expect(now[k], k).toEqual(fresh[k]);
      else expect(now[k], k).not.toBe(before[k]);
    }

    // What the controller shows equals a freshly built page's, once both sandboxes are up.
    const other = page().page.ctl;
    await Promise.all([ctl.whenSandbox(), other.whenSandbox()]);
    const a = ctl as unknown as Record<string, unknown>;
    const b = other as unknown as Record<string, unknown>;
    // (Each page boots a sandbox of its own: only what it is, not the instance, compares.)
    for (const k of accessors(RunController.prototype).filter((k) => k !== 'sandbox')) {
      if (plain(b[k])) expect(a[k], k).toEqual(b[k]);
    }
  });
});

describe('the stepper on the page', () => {
  // Settings → Scripted replies sets the pace of every scripted reply, the edited turn a fork
  // replays included (it used to keep its own 12 ms per event, so "instant" did not reach it).
  test.each(['streamed', 'instant'] as const)('an edited tool call replayed as a fork plays at the Scripted replies pace (%s)', async (pace) => {
    const { page: p } = page();
    p.settings.replayPace = pace;
    p.stepper.toggle('event', 'tool.proposed');
    await p.stepper.continue();
    const pending = p.stepper.pending;
    expect(pending?.kind).toBe('tool');
    const call = pending?.kind === 'tool' ? pending.calls[0]! : null;
    const sleeps = vi.spyOn(realClock, 'sleep');
    try {
      // Lesson 1's first call is a glob: the edit widens its pattern.
      expect(call!.name).toBe('glob');
      await p.stepper.editToolInputs(new Map([[call!.toolUseId, JSON.stringify({ ...(call!.input as Record<string, unknown>), pattern: '**/*' })]]));
      expect(p.stepper.error).toBeNull();
      await p.ctl.run();
      expect(p.ctl.status).toBe('done');
      const edited = p.ctl.events.find((e) => e.type === 'tool.result' && e.toolUseId === `${call!.toolUseId}_edit1`);
      expect(edited?.type === 'tool.result' && !edited.isError).toBe(true);
      // The replayed turn's events, then the script's: a pause before each when streamed, none when instant.
      const paced = sleeps.mock.calls.filter(([ms]) => ms === SCRIPTED_CHUNK_DELAY_MS).length;
      if (pace === 'streamed') expect(paced).toBeGreaterThan(0);
      else expect(paced).toBe(0);
    } finally {
      sleeps.mockRestore();
    }
  });
});
