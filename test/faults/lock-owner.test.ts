/**
 * Issue 20 §2: a lock whose owner record is missing, malformed or from the future goes stale like
 * any other (recovered, with why); every lock wait honours a stop and has an upper bound.
 */
import { describe, expect, it } from 'vitest';
import { LockTimeoutError, lockPath, withLock, type LockRecovery } from '../../src/harness/agents/teams/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { BoundedClock } from './bounded-clock.ts';
import { call, runAll, teamSetup, turn } from '../unit/teams-fixture.ts';

const BAD_OWNERS: [string, string | null, RegExp][] = [
  ['no owner.json', null, /missing/],
  ['not JSON', '{"holder":"tab-2","at":17', /not JSON/],
  ['no `at`', JSON.stringify({ holder: 'tab-2' }), /no numeric `at`/],
  ['a string `at`', JSON.stringify({ holder: 'tab-2', at: '2026-12-03T10:00:00Z' }), /no numeric `at`/],
  ['a future `at`', JSON.stringify({ holder: 'tab-2', at: 9e15 }), /in the future/],
];

describe('a lock with a bad owner record', () => {
  for (const [what, owner, why] of BAD_OWNERS) {
    it(`with ${what} is recovered after the stale timeout and says why`, async () => {
      const sb = await createJustBashSandbox({ files: {} });
      const clock = new BoundedClock(1_000_000, 1);
      const lock = lockPath(sb.workdir, 'inbox-bob');
      await sb.fs.mkdir(lock, { recursive: true });
      if (owner !== null) await sb.fs.writeFile(`${lock}/owner.json`, owner);
      const recovered: LockRecovery[] = [];
      const { value } = await withLock(sb.fs, lock, { clock, holder: 'me', staleMs: 1_000, retryMs: 100, onRecovered: (r) => void recovered.push(r) }, async () => 'ran');
      expect(value).toBe('ran');
      expect(recovered).toHaveLength(1);
      expect(recovered[0]!.why).toMatch(why);
      expect(recovered[0]!.ageMs).toBeGreaterThan(1_000);
      expect(await sb.fs.stat(lock)).toBeNull();
    });
  }

  it('a holder that keeps its lock fresh makes the wait end in a visible error, not a hang', async () => {
    const sb = await createJustBashSandbox({ files: {} });
    const lock = lockPath(sb.workdir, 'tasks');
    await sb.fs.mkdir(lock, { recursive: true });
    // A live holder that never lets go: each time we wait, its record is renewed.
    const clock: BoundedClock = new BoundedClock(0, 1, 5_000, async () => {
      await sb.fs.writeFile(`${lock}/owner.json`, JSON.stringify({ holder: 'greedy', at: clock.now() }));
    });
    await sb.fs.writeFile(`${lock}/owner.json`, JSON.stringify({ holder: 'greedy', at: 0 }));
    const err = await withLock(sb.fs, lock, { clock, holder: 'me', staleMs: 1_000, retryMs: 100 }, async () => 'ran').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    expect((err as Error).message).toMatch(/Gave up waiting for the lock .*tasks\.lock after \d+ ms \(held by greedy\)/);
  });
});

describe('a team member waiting for a lock', () => {
  it("stops waiting when the run is stopped (the team passes the run's signal to every lock)", async () => {
    const stop = new AbortController();
    // Another tab holds bob's mailbox (a live lock, far from stale); the lead's send_message waits
    // for it, and the user presses Stop while it waits.
    const hold = `mkdir -p .team/locks/inbox-bob.lock && echo '{"holder":"another-tab","at":1}' > .team/locks/inbox-bob.lock/owner.json`;
    const s = await teamSetup(
      [turn(call('spawn_teammate', { name: 'bob', prompt: 'wait' })), turn(call('bash', { command: hold })), turn(call('send_message', { to: 'bob', body: 'hi' })), turn({ type: 'text', text: 'done' })],
      { bob: [turn({ type: 'text', text: 'ok' })] },
      { signal: stop.signal, runtime: { lockStaleMs: 600_000, lockRetryMs: 10 } },
    );
    let sleeps = 0;
    const sleep = s.clock.sleep.bind(s.clock);
    s.clock.sleep = async (ms, signal) => {
      if (++sleeps === 5) stop.abort();
      if (sleeps > 20_000) throw new Error('still waiting for the lock: the stop was not seen');
      return sleep(ms, signal);
    };
    const { events, result } = await runAll(s);
    expect(result.reason).toBe('aborted');
    expect(sleeps).toBeLessThan(20);
    expect(events.filter((e) => e.type === 'mailbox.sent').map((e) => (e as { message: { body: string } }).message.body)).not.toContain('hi');
  });
});
