/**
 * The shell parser on demand (src/run/shell-parser-on-demand.ts), as the page binds it
 * (`ui/state/page-shell-parser.ts`): nothing loads before the run's first model request, the
 * request starts the load, and the event after it is handed on only once the parser is there —
 * so a command hidden in a `${x:-…}` default is still denied on just-bash's AST.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import type { ShellParser } from '../../src/harness/permissions/index.ts';
import type { TraceEvent } from '../../src/harness/trace.ts';
import { prepareRun, runPrepared } from '../../src/run/prepare.ts';
import { judgedAfterParserLoads, shellParserOnDemand } from '../../src/run/shell-parser-on-demand.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { justBashShellParser } from '../../src/sandbox/justbash/shell-parser.ts';
import { hiddenRmScenario } from '../fixtures/hidden-rm.ts';
import { drainGenerator, ofType } from '../helpers/events.ts';


/** A loader the test releases by hand, counting its calls. */
function heldLoader() {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const loader = { calls: 0, release, import: async (): Promise<ShellParser> => {
    loader.calls++;
    await released;
    return justBashShellParser;
  } };
  return loader;
}

/** `gen`, telling `seen` about every event it yields (what the gate receives from the loop). */
async function* spy(gen: AsyncGenerator<TraceEvent, unknown>, seen: (e: TraceEvent) => void): AsyncGenerator<TraceEvent, unknown> {
  let step = await gen.next();
  while (!step.done) {
    seen(step.value);
    yield step.value;
    step = await gen.next();
  }
  return step.value;
}

describe('the shell parser loads on demand', () => {
  it('nothing loads before the first model request; the event after it waits for the parser; the hidden rm is denied', async () => {
    const sandbox = await createJustBashSandbox();
    const loader = heldLoader();
    const shell = shellParserOnDemand(loader.import);
    const prepared = await prepareRun({ scenario: hiddenRmScenario('unit'), sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, shellParser: shell.parser });
    let afterRequest!: () => void;
    const loopHasNext = new Promise<void>((r) => (afterRequest = r));
    let requested = false;
    const inner = spy(runPrepared(prepared), (e) => {
      if (requested) afterRequest();
      if (e.type === 'model.request') requested = true;
    });
    const gen = judgedAfterParserLoads(inner, shell);

    // Up to the first model request (run.start, turn.start, …): no load started.
    const before: TraceEvent[] = [];
    for (;;) {
      const step = await gen.next();
      if (step.done) throw new Error('the run ended before its first model request');
      before.push(step.value);
      if (step.value.type === 'model.request') break;
      expect(loader.calls).toBe(0);
    }
    // Handing on the request started the load.
    expect(loader.calls).toBe(1);
    expect(shell.loaded).toBe(false);

    // The loop has its next event (the model answered), but the gate holds it until the parser is there.
    let handedOn = false;
    const next = gen.next().then((s) => ((handedOn = true), s));
    await loopHasNext;
    expect(handedOn).toBe(false);
    loader.release();
    const first = await next;
    expect(shell.loaded).toBe(true);
    expect(first.done).toBe(false);

    const { events } = await drainGenerator(gen);
    const decision = ofType(events, 'permission.decision')[0]!;
    expect(decision.decision).toBe('deny');
    expect(decision.reason).toContain('Bash(rm *)');
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/keep.txt`)).toBe('keep me');
    expect(loader.calls).toBe(1);
  });

  it('the port fails closed before the load (the engine asks) and starts it, so a second look finds the parser', async () => {
    const loader = heldLoader();
    const shell = shellParserOnDemand(loader.import);
    expect(shell.parser.parse('ls')).toEqual({ ok: false, error: 'the shell parser has not loaded yet' });
    expect(loader.calls).toBe(1);
    loader.release();
    await shell.load();
    expect(shell.parser.parse('ls').ok).toBe(true);
    expect(loader.calls).toBe(1);
  });

  it('a failed load fails the pull that waits for it, and nothing is judged', async () => {
    const sandbox = await createJustBashSandbox();
    const shell = shellParserOnDemand(async () => {
      throw new Error('chunk failed to load');
    });
    const prepared = await prepareRun({ scenario: hiddenRmScenario('unit'), sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true, shellParser: shell.parser });
    const seen: TraceEvent[] = [];
    await expect(drainGenerator(judgedAfterParserLoads(runPrepared(prepared), shell), (e) => seen.push(e))).rejects.toThrow('chunk failed to load');
    expect(seen.at(-1)?.type).toBe('model.request');
    expect(ofType(seen, 'permission.decision')).toHaveLength(0);
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/keep.txt`)).toBe('keep me');
  });
});
