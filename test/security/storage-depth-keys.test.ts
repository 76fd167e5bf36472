/**
 * Attacker: a model (or import) that sends a tool input nested 10,000 levels deep, hoping the
 * session stops saving; a link nested thousands deep, hoping something that walks it overflows;
 * and a key pasted with spaces and a newline around it, hoping it slips past redaction.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock, SequentialIds } from '../../src/harness/index.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { depthNote, MAX_STORED_DEPTH } from '../../src/harness/session/bound-depth.ts';
import { redactDeep, redactText } from '../../src/harness/session/redact.ts';
import type { SessionLogEvent } from '../../src/harness/session/types.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { decodeScenarioLinkV1, MAX_NESTING_DEPTH } from '../../src/scenarios/codec.ts';
import { gzipSync, strToU8 } from 'fflate';

function nested(levels: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

describe('deep nesting', () => {
  it('a tool input nested 10,000 levels deep does not stop the session from saving', async () => {
    const store = new MemorySessionStore({ clock: new FakeClock(1), ids: new SequentialIds() });
    const created = await store.create({ title: 'deep' });
    if (!created.ok) throw new Error(created.error.message);
    const id = created.value.id;
    const errors: string[] = [];
    const writer = new SessionLogWriter(store, id, { onError: (e) => errors.push(e.message) });
    const deep = { type: 'tool.proposed', seq: 1, at: 1, id: 't1', name: 'bash', input: nested(10_000) } as unknown as SessionLogEvent;
    writer.append(deep);
    writer.append({ type: 'run.end', seq: 2, at: 2 } as unknown as SessionLogEvent);
    const r = await writer.flush();
    expect(errors).toEqual([]);
    expect(r.ok).toBe(true);
    const log = await store.load(id);
    if (!log.ok) throw new Error(log.error.message);
    expect(log.value.map((e) => e.type)).toEqual(['tool.proposed', 'run.end']);
    expect(JSON.stringify(log.value[0])).toContain(depthNote(MAX_STORED_DEPTH));
  });

  it('a link nested deeper than the cap is refused with a clear error, not a stack overflow', () => {
    // Written as text: even JSON.stringify cannot walk 5,000 levels.
    const input = `${'{"a":'.repeat(5_000)}"x"${'}'.repeat(5_000)}`;
    const doc = `{"version":1,"id":"deep","title":"Deep","prompts":["hi"],"model":{"kind":"scripted","turns":[{"content":[{"type":"tool_use","name":"bash","input":${input}}]}]}}`;
    const payload = Buffer.from(gzipSync(strToU8(doc))).toString('base64url');
    const r = decodeScenarioLinkV1(`#s=${payload}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`deeper than ${MAX_NESTING_DEPTH} levels`);
  });
});

describe('whitespace-padded keys', () => {
  const key = 'my-proxy-key-1234567890';
  it('a key pasted as "  key\\n" is still redacted where its trimmed form appears', () => {
    const padded = `  ${key}\n`;
    expect(redactText(`Authorization: Bearer ${key}`, [padded])).toBe('Authorization: Bearer [redacted]');
    expect(JSON.stringify(redactDeep({ body: { error: `bad key ${key}` }, [key]: 1 }, [padded]))).not.toContain(key);
    // Anthropic-shaped keys are redacted by shape whatever the padding.
    expect(redactText(`x sk-ant-api03-abcdefghij\n`, [])).toBe('x sk-ant-[redacted]\n');
  });
});
