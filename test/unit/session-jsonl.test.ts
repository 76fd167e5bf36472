import { describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { SequentialIds } from '../../src/harness/clock.ts';
import { exportSessionJsonl, importSessionJsonl } from '../../src/harness/session/jsonl.ts';
import { SessionLogWriter } from '../../src/harness/session/log-writer.ts';
import { persistRun } from '../../src/harness/session/persist-run.ts';
import { redactDeep } from '../../src/harness/session/redact.ts';
import { replaySession } from '../../src/harness/session/replay.ts';
import { SnapshotTracker } from '../../src/harness/session/snapshot.ts';
import type { SessionLogEvent } from '../../src/harness/session/types.ts';
import { MemorySessionStore } from '../../src/storage/memory/session-store.ts';
import { setup } from './loop-helpers.ts';

const KEY = 'sk-ant-api03-SECRETSECRETSECRET_abc-123';

async function sessionLog(): Promise<SessionLogEvent[]> {
  const s = await setup(
    [
      { content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'b1', name: 'bash', input: { command: 'cat key.txt' } }] },
      { content: [{ type: 'text', text: `Your key is ${KEY}` }] },
    ],
    { files: { 'key.txt': `ANTHROPIC_API_KEY=${KEY}\n` }, prompt: `Use my key ${KEY} please` },
  );
  const store = new MemorySessionStore({ clock: s.clock, ids: new SequentialIds() });
  const c = await store.create({ title: 't' });
  if (!c.ok) throw new Error();
  const gen = persistRun(agentLoop(s.input, s.deps), {
    writer: new SessionLogWriter(store, c.value.id),
    clock: s.clock,
    snapshots: { fs: s.deps.sandbox.fs, root: s.deps.sandbox.workdir, tracker: new SnapshotTracker() },
  });
  for (let step = await gen.next(); !step.done; step = await gen.next());
  const log = await store.load(c.value.id);
  if (!log.ok) throw new Error();
  return log.value;
}

describe('JSONL export', () => {
  it('never contains the API key, wherever it appeared (prompt, tool output, reply, files)', async () => {
    const log = await sessionLog();
    expect(JSON.stringify(log)).toContain(KEY); // the log itself had it in several places
    const text = exportSessionJsonl(log, { sessionId: 's1', secrets: [KEY] });
    expect(text).not.toContain('SECRETSECRET');
    expect(text).toContain('Use my key [redacted] please');
    // Even without being told the key, anything key-shaped goes.
    const bare = exportSessionJsonl(log, { sessionId: 's1' });
    expect(bare).not.toContain('SECRETSECRET');
    expect(bare).toContain('ANTHROPIC_API_KEY=sk-ant-[redacted]');
  });

  it('writes Claude Code records: chained message records plus trace records', async () => {
    const log = await sessionLog();
    const lines = exportSessionJsonl(log, { sessionId: 's1' }).trim().split('\n').map((l) => JSON.parse(l));
    const msgs = lines.filter((l) => l.type === 'user' || l.type === 'assistant');
    expect(lines.filter((l) => l.type === 'trace')).toHaveLength(log.length);
    expect(msgs.length).toBe(log.filter((e) => e.type === 'message.appended').length);
    expect(msgs[0]).toMatchObject({ parentUuid: null, isSidechain: false, sessionId: 's1', type: 'user', message: { role: 'user' } });
    expect(msgs[0].uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let i = 1; i < msgs.length; i++) expect(msgs[i].parentUuid).toBe(msgs[i - 1].uuid);
    expect(new Set(lines.map((l) => l.uuid)).size).toBe(lines.length);
    expect(Number.isNaN(Date.parse(msgs[0].timestamp))).toBe(false);
    // Stable: the same log exports identically.
    expect(exportSessionJsonl(log, { sessionId: 's1' })).toBe(exportSessionJsonl(log, { sessionId: 's1' }));
  });

  it('re-imports to the same (redacted) log, which replays the same', async () => {
    const log = await sessionLog();
    const r = importSessionJsonl(exportSessionJsonl(log, { sessionId: 's1', secrets: [KEY] }));
    if (!r.ok) throw new Error(r.error);
    expect(r.sessionId).toBe('s1');
    expect(r.events).toEqual(redactDeep(log, [KEY]));
    expect(replaySession(r.events).messages).toEqual(replaySession(redactDeep(log, [KEY])).messages);
  });
});

describe('JSONL import', () => {
  it('imports a Claude Code transcript (message records only), skipping what it does not use', () => {
    const text = [
      JSON.stringify({ type: 'summary', summary: 'x', leafUuid: 'u2' }),
      JSON.stringify({ uuid: 'u1', parentUuid: null, timestamp: '2026-01-01T00:00:00Z', isSidechain: false, sessionId: 'cc', type: 'user', message: { role: 'user', content: 'hello' } }),
      JSON.stringify({ uuid: 'u2', parentUuid: 'u1', timestamp: '2026-01-01T00:00:01Z', isSidechain: false, sessionId: 'cc', type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] } }),
      JSON.stringify({ uuid: 'u3', parentUuid: 'u2', timestamp: '2026-01-01T00:00:02Z', isSidechain: true, sessionId: 'cc', type: 'user', message: { role: 'user', content: 'sub' } }),
      '',
    ].join('\n');
    const r = importSessionJsonl(text);
    if (!r.ok) throw new Error(r.error);
    expect(r.sessionId).toBe('cc');
    const replay = replaySession(r.events);
    expect(replay.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(replay.resumeMessages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(r.notes.join('\n')).toMatch(/skipped 1 "summary"[\s\S]*sidechain/);
  });

  const cases: [string, string, RegExp, number | undefined][] = [
    ['not JSON', '{"type":"user","message":{"role":"user","content":"a"}}\n{oops', /Line 2 is not JSON/, 2],
    ['an array line', '[1,2]', /Line 1 is not a session record/, 1],
    ['a record without type', '{"message":{}}', /Line 1 is not a session record/, 1],
    ['a message with a bad role', '\n\n{"type":"user","message":{"role":"system","content":"x"}}', /Line 3: the user record is malformed/, 3],
    ['a trace record with a malformed message event', '{"type":"trace","event":{"type":"message.appended","seq":1,"ts":1,"agentId":"main","turn":0,"index":-1}}', /Line 1: the trace record is malformed/, 1],
    ['a trace record without seq', '{"type":"trace","event":{"type":"turn.start","ts":1,"agentId":"main","turn":0}}', /Line 1: the trace record is malformed/, 1],
    ['an empty file', '\n\n', /nothing to import/, undefined],
  ];
  it.each(cases)('rejects %s with a line-numbered message', (_name, text, message, line) => {
    const r = importSessionJsonl(text);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(message);
      expect(r.line).toBe(line);
    }
  });

  it('refuses files over the size limit', () => {
    const r = importSessionJsonl('x'.repeat(100), { maxBytes: 10 });
    expect(r.ok ? '' : r.error).toMatch(/too large/);
  });
});
