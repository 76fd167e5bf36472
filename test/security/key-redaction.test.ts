/**
 * Attacker's luck: the person pasted their API key into a prompt and the model put it in a tool
 * input (`echo <key>`). Kept as a golden case it would travel in the share link
 * (`settings.golden[].input`); the audit export and the session log in IndexedDB would hold it.
 * The key is redacted in every kept case, link, export and before every session-log write.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds, type TraceEvent } from '../../src/harness/index.ts';
import { SessionLogWriter } from '../../src/harness/session/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { decodeScenarioLink, scenarioLinkUrl } from '../../src/scenarios/codec.ts';
import { prepareRun } from '../../src/run/prepare.ts';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';
import { IdbSessionStore } from '../../src/storage/idb/session-store.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { sessionTitle } from '../../src/ui/sessions/session-tree.ts';
import { auditJsonLines } from '../../src/ui/state/safety.ts';
import { keepCall } from '../../src/ui/tools/golden-record.ts';
import { drain } from '../unit/loop-helpers.ts';

// Not key-shaped on purpose: the key a person set is redacted as itself, not only by its `sk-ant-` shape.
const KEY = 'my-proxy-key-5d2c1b9a7e3f';

function leakyScenario(): Scenario {
  const r = parseScenario({
    id: 'leaky',
    title: 'Leaky',
    prompt: `My key is ${KEY}; echo it.`,
    files: { 'a.txt': 'a' },
    model: { kind: 'scripted', turns: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: `echo ${KEY}` } }] }, { content: [{ type: 'text', text: 'Done.' }] }] },
    settings: { permissions: { allow: ['Bash(echo *)'] } },
  });
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

async function leakyRun(): Promise<{ events: TraceEvent[]; scenario: Scenario; sandbox: Awaited<ReturnType<typeof createJustBashSandbox>> }> {
  const scenario = leakyScenario();
  const sandbox = await createJustBashSandbox();
  const prepared = await prepareRun({ scenario, sandbox, clock: new FakeClock(), ids: new SequentialIds(), trusted: true });
  const { events } = await drain(prepared.input, prepared.deps);
  return { events, scenario, sandbox };
}

describe('the API key is redacted everywhere it could leave or be stored', () => {
  it('a kept golden case, and the share link of a scenario holding one, never carry the key', async () => {
    const { events, scenario, sandbox } = await leakyRun();
    try {
      const call = events.find((e) => e.type === 'tool.proposed');
      if (call?.type !== 'tool.proposed') throw new Error('no call');
      expect(JSON.stringify(call.input)).toContain(KEY);
      const kept = await keepCall({ events, toolUseId: call.toolUseId, existing: [], filesAt: null, sandbox, secrets: [KEY] });
      if (!kept.ok) throw new Error(kept.error);
      expect(JSON.stringify(kept.case)).not.toContain(KEY);
      // A scenario that already holds the key in a case (kept before this fix): the link still does not.
      const raw = await keepCall({ events, toolUseId: call.toolUseId, existing: [], filesAt: null, sandbox });
      if (!raw.ok) throw new Error(raw.error);
      const withCase = { ...scenario, settings: { ...scenario.settings, golden: [raw.case] } };
      const url = scenarioLinkUrl('http://127.0.0.1/', withCase, [KEY]);
      const decoded = decodeScenarioLink(url.slice(url.indexOf('#')));
      if (!decoded.ok) throw new Error(decoded.error);
      expect(JSON.stringify(decoded.scenario)).not.toContain(KEY);
      expect(JSON.stringify(decoded.scenario.settings.golden)).toContain('[redacted]');
    } finally {
      await sandbox.dispose();
    }
  });

  it('the audit export never holds the key', async () => {
    const { events, sandbox } = await leakyRun();
    await sandbox.dispose();
    expect(auditJsonLines(events)).toContain(KEY);
    const audit = auditJsonLines(events, [KEY]);
    expect(audit).not.toContain(KEY);
    expect(audit).toContain('echo [redacted]');
  });

  it('the session log stored in the browser never holds the key, though the conversation did', async () => {
    const { events, sandbox } = await leakyRun();
    await sandbox.dispose();
    const store = new MemorySessionStore({ clock: new FakeClock(), ids: new SequentialIds() });
    const created = await store.create({ title: 'leaky' });
    if (!created.ok) throw new Error(created.error.message);
    const writer = new SessionLogWriter(store, created.value.id, { secrets: () => [KEY] });
    for (const e of events) writer.append(e);
    const flushed = await writer.flush();
    expect(flushed.ok).toBe(true);
    const log = await store.load(created.value.id);
    if (!log.ok) throw new Error(log.error.message);
    expect(log.value).toHaveLength(events.length);
    expect(JSON.stringify(log.value)).not.toContain(KEY);
    // Key-shaped text is redacted too, even when the key in use is another one.
    const other = new SessionLogWriter(store, created.value.id, { secrets: () => [] });
    other.append({ ...events[0]!, type: 'run.start', note: 'sk-ant-api03-abcdefghijklmnop' } as unknown as TraceEvent);
    await other.flush();
    const again = await store.load(created.value.id);
    expect(again.ok && JSON.stringify(again.value)).not.toContain('sk-ant-api03-abcdefghijklmnop');
  });

  it('a session title derived from a prompt holding the key never holds it (the key set, or anything key-shaped)', async () => {
    const shaped = 'sk-ant-api03-Zx9yW8vU7tS6rQ5pO4nM';
    // The page derives the title with the key it holds: redacted whatever its shape, before clipping.
    const title = sessionTitle('Leaky', `My key is ${KEY}; echo it.`, [KEY]);
    expect(title).not.toContain(KEY);
    expect(title).toContain('[redacted]');
    expect(sessionTitle('Leaky', `use ${shaped} please`)).not.toContain(shaped);
    // A long prompt that clips inside the key: the redaction comes first, so no key prefix survives.
    expect(sessionTitle('Leaky', `${'word '.repeat(10)}${KEY}`, [KEY])).not.toContain(KEY.slice(0, 8));
    // The stores themselves refuse to keep a key-shaped title, on create, rename and fork.
    const stores = [
      new MemorySessionStore({ clock: new FakeClock(), ids: new SequentialIds() }),
      new IdbSessionStore({ name: 'key-redaction-titles', clock: new FakeClock(), ids: new SequentialIds() }),
    ];
    for (const store of stores) {
      const created = await store.create({ title: `Leaky — ${shaped}` });
      if (!created.ok) throw new Error(created.error.message);
      expect(created.value.title).not.toContain(shaped);
      const renamed = await store.rename(created.value.id, `again ${shaped}`);
      expect(renamed.ok && renamed.value.title).toBe('again sk-ant-[redacted]');
      const forked = await store.fork(created.value.id, 0, `fork ${shaped}`);
      expect(forked.ok && forked.value.title).toBe('fork sk-ant-[redacted]');
      const list = await store.list();
      expect(JSON.stringify(list)).not.toContain(shaped);
    }
  });
});
