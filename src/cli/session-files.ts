/**
 * Headless sessions on disk, as Claude Code keeps them: one JSONL transcript per session under a
 * folder per project, `<root>/projects/<cwd with every non-alphanumeric character as ->/<id>.jsonl`
 * (root `~/.harness-playground`, or `HARNESS_PLAYGROUND_CONFIG_DIR`). The records are the session
 * export's (`harness/session/jsonl.ts`: Claude Code's message records plus our trace records and a
 * run-result marker per run), so `--resume` / `--continue` rebuild the history exactly, and the
 * page can import the same file. The API key is redacted from every record.
 */
import { mkdir, open, readdir, readFile, stat, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SessionLogEvent } from '../harness/session/index.ts';
import type { Message } from '../harness/messages.ts';
import type { ContextState } from '../harness/context/index.ts';

export const CONFIG_DIR_ENV = 'HARNESS_PLAYGROUND_CONFIG_DIR';

/** Claude Code's project folder name: the absolute path with every non-alphanumeric character as `-`. */
export function projectDirName(cwd: string): string {
  return resolve(cwd).replace(/[^a-zA-Z0-9]/g, '-');
}

export function sessionsDir(cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const root = env[CONFIG_DIR_ENV] || join(homedir(), '.harness-playground');
  return join(root, 'projects', projectDirName(cwd));
}

/**
 * `appendable`: the file is our own export of `log` under this id (a trace record per entry), so
 * a continued run can append to it as it is; otherwise (a Claude Code transcript, say) it is
 * rewritten from `log` first.
 */
export type LoadedSession = { id: string; log: SessionLogEvent[]; messages: Message[]; contextState: ContextState | null; notes: string[]; appendable: boolean };

export type SessionLoad = { ok: true; session: LoadedSession } | { ok: false; problem: string };

const ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,127}$/;

export async function loadSession(cwd: string, id: string, env?: NodeJS.ProcessEnv): Promise<SessionLoad> {
  if (!ID.test(id)) return { ok: false, problem: `"${id}" is not a session id (letters, digits and dashes, as printed in session_id)` };
  const dir = sessionsDir(cwd, env);
  const file = join(dir, `${id}.jsonl`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return { ok: false, problem: `no session ${id} for ${resolve(cwd)} (looked in ${dir})` };
  }
  const { importSessionJsonl, replaySession } = await import('../harness/session/index.ts');
  const imported = importSessionJsonl(text);
  if (!imported.ok) return { ok: false, problem: `${file}: ${imported.error}` };
  const replayed = replaySession(imported.events);
  const traceRecords = text.split('\n').filter((l) => l.startsWith('{"type":"trace"')).length;
  const appendable = imported.sessionId === id && traceRecords === imported.events.length && text.endsWith('\n');
  return { ok: true, session: { id, log: imported.events, messages: replayed.resumeMessages, contextState: replayed.contextState, notes: [...imported.notes, ...replayed.repairs], appendable } };
}

/** The id of this folder's most recently written session, or null when it has none. */
export async function latestSessionId(cwd: string, env?: NodeJS.ProcessEnv): Promise<string | null> {
  const dir = sessionsDir(cwd, env);
  const names = await readdir(dir).catch(() => [] as string[]);
  let best: { id: string; mtime: number } | null = null;
  for (const n of names) {
    if (!n.endsWith('.jsonl')) continue;
    const s = await stat(join(dir, n)).catch(() => null);
    if (s && (!best || s.mtimeMs > best.mtime)) best = { id: n.slice(0, -'.jsonl'.length), mtime: s.mtimeMs };
  }
  return best?.id ?? null;
}

/**
 * A session file written as the run goes, as Claude Code appends to its transcript: each entry is
 * encoded and written when it happens (in batches of about 64 KB), so the runner keeps no copy of
 * the run's events and never builds the whole file as one string. `open` appends to a file it
 * wrote itself (`append`), or rewrites what earlier runs left (streamed line by line), so the
 * file is always the export of the whole log. Readable by its owner only.
 */
export class SessionFileWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private constructor(
    readonly file: string,
    private readonly handle: FileHandle,
    private readonly encoder: import('../harness/session/index.ts').SessionJsonlEncoder,
  ) {}

  static async open(cwd: string, id: string, prior: Iterable<SessionLogEvent>, secrets: readonly string[], opts: { append?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<SessionFileWriter> {
    const { SessionJsonlEncoder } = await import('../harness/session/index.ts');
    const dir = sessionsDir(cwd, opts.env);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, `${id}.jsonl`);
    const encoder = new SessionJsonlEncoder({ sessionId: id, secrets });
    const writer = new SessionFileWriter(file, await open(file, opts.append ? 'a' : 'w', 0o600), encoder);
    for (const e of prior) {
      if (opts.append) encoder.skip(e);
      else await writer.append(e);
    }
    await writer.flush();
    return writer;
  }

  async append(event: SessionLogEvent): Promise<void> {
    for (const line of this.encoder.lines(event)) {
      this.pending.push(line);
      this.pendingChars += line.length + 1;
    }
    if (this.pendingChars >= 64_000) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingChars = 0;
    await this.handle.write(text);
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle.close();
  }
}
