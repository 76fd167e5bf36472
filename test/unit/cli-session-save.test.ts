/**
 * Headless sessions are saved as they happen (issue 23 §3, peak memory on long sessions): the
 * JSONL is encoded one entry at a time (`sessionJsonlLines`, `SessionJsonlEncoder`) and the runner
 * appends each event to the file (`SessionFileWriter`) instead of keeping the run's events and
 * writing the whole log as one string at the end. The file is byte for byte the export of the
 * whole log, a resumed session's earlier runs included, and what happened is on disk before each
 * model call.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLoop } from '../../src/harness/loop/agent-loop.ts';
import { exportSessionJsonl, importSessionJsonl, sessionJsonlLines } from '../../src/harness/session/jsonl.ts';
import type { SessionLogEvent } from '../../src/harness/session/types.ts';
import { projectDirName, SessionFileWriter } from '../../src/cli/session-files.ts';
import { startFakeAnthropicServer, type FakeAnthropicServer, type RecordedRequest } from '../fixtures/fake-anthropic-server.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { runCliInProcess } from '../helpers/cli.ts';
import { setup } from './loop-helpers.ts';

const KEY = 'sk-ant-api03-SESSIONSAVE_secret-0123456789';

/** A real run's events: two tool calls, a key in a file and in the answer. */
async function runLog(): Promise<SessionLogEvent[]> {
  const s = await setup(
    [
      { content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'b1', name: 'bash', input: { command: 'cat key.txt' } }] },
      { content: [{ type: 'tool_use', id: 'b2', name: 'bash', input: { command: 'seq 1 3000' } }] },
      { content: [{ type: 'text', text: `Your key is ${KEY}` }] },
    ],
    { files: { 'key.txt': `ANTHROPIC_API_KEY=${KEY}\n` }, prompt: 'Look around' },
  );
  const log: SessionLogEvent[] = [];
  for await (const e of agentLoop(s.input, s.deps)) log.push(e);
  return log;
}

describe('session JSONL, one entry at a time', () => {
  it('sessionJsonlLines is the export, line for line, redacted', async () => {
    const log = await runLog();
    const lines = [...sessionJsonlLines(log, { sessionId: 's1', secrets: [KEY] })];
    expect(`${lines.join('\n')}\n`).toBe(exportSessionJsonl(log, { sessionId: 's1', secrets: [KEY] }));
    expect(lines.some((l) => l.includes('SESSIONSAVE'))).toBe(false);
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });

  it('SessionFileWriter: earlier runs, then this one appended as it goes, is exactly the export of the whole log', async () => {
    const log = await runLog();
    const half = Math.floor(log.length / 2);
    const env = { HARNESS_PLAYGROUND_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'hp-save-')) };
    const writer = await SessionFileWriter.open('/project', 'abc-1', log.slice(0, half), [KEY], { env });
    const afterOpen = readFileSync(writer.file, 'utf8');
    expect(afterOpen).toBe(exportSessionJsonl(log.slice(0, half), { sessionId: 'abc-1', secrets: [KEY] }));
    for (const e of log.slice(half)) await writer.append(e);
    await writer.close();
    const text = readFileSync(writer.file, 'utf8');
    expect(text).toBe(exportSessionJsonl(log, { sessionId: 'abc-1', secrets: [KEY] }));
    const back = importSessionJsonl(text);
    expect(back.ok && back.events.length).toBe(log.length);
    // Appending to a file it wrote: the earlier entries are skipped, not re-encoded, and the result is the same.
    const partial = await SessionFileWriter.open('/project', 'abc-2', log.slice(0, half), [KEY], { env });
    await partial.close();
    const appender = await SessionFileWriter.open('/project', 'abc-2', log.slice(0, half), [KEY], { env, append: true });
    for (const e of log.slice(half)) await appender.append(e);
    await appender.close();
    expect(readFileSync(appender.file, 'utf8')).toBe(exportSessionJsonl(log, { sessionId: 'abc-2', secrets: [KEY] }));
  });
});

describe('the runner saves a folder session as it goes', { timeout: 90_000 }, () => {
  let server: FakeAnthropicServer;
  const config = mkdtempSync(join(tmpdir(), 'hp-save-cfg-'));
  beforeAll(async () => {
    server = await startFakeAnthropicServer({ turns: [], requireApiKey: KEY });
  });
  afterAll(async () => {
    await server.close();
  });

  it('before each model call the file holds the run so far; at the end, the whole run; --resume appends, leaving what it had byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-save-dir-'));
    const sessions = join(config, 'projects', projectDirName(dir));
    const seen: string[] = [];
    const script: ScriptedTurn[] = [
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo first-marker' } }] },
      { content: [{ type: 'tool_use', name: 'bash', input: { command: 'echo second-marker' } }] },
      { content: [{ type: 'text', text: 'Done.' }] },
    ];
    server.setTurns((_req: RecordedRequest, i: number) => {
      const files = readdirSync(sessions, { withFileTypes: true }).filter((f) => f.name.endsWith('.jsonl'));
      seen.push(files.length === 1 ? readFileSync(join(sessions, files[0]!.name), 'utf8') : '');
      return script[i]!;
    });
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url, HARNESS_PLAYGROUND_CONFIG_DIR: config };
    const r = await runCliInProcess(['--dir', dir, '-p', 'echo twice', '--trust', '--permission-mode', 'bypassPermissions', '--output-format', 'json'], env);
    expect(r.code).toBe(0);
    const { session_id: id } = JSON.parse(r.stdout) as { session_id: string };
    // Request 3 is sent after both results: they are already on disk; request 2 after the first only.
    expect(seen[1]).toContain('first-marker');
    expect(seen[1]).not.toContain('second-marker');
    expect(seen[2]).toContain('second-marker');
    const file = join(sessions, `${id}.jsonl`);
    const first = readFileSync(file, 'utf8');
    const imported = importSessionJsonl(first);
    expect(imported.ok).toBe(true);
    if (!imported.ok) return;
    expect(imported.events.at(-1)).toMatchObject({ type: 'session.run_result', reason: 'completed' });
    expect(first.trim().split('\n').filter((l) => (JSON.parse(l) as { type: string }).type === 'trace')).toHaveLength(imported.events.length);
    expect(first).not.toContain('SESSIONSAVE');

    // A resumed run: the file starts with exactly what it had, then this run.
    server.setTurns([{ content: [{ type: 'text', text: 'Again.' }] }]);
    const again = await runCliInProcess(['--dir', dir, '--resume', id, '-p', 'once more', '--output-format', 'json'], env);
    expect(again.code).toBe(0);
    const second = readFileSync(file, 'utf8');
    expect(second.startsWith(first)).toBe(true);
    expect(second.length).toBeGreaterThan(first.length);
    expect(second).toContain('once more');
  });
});
