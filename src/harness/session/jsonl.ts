/**
 * Sessions as JSONL, in Claude Code's transcript record shape, so an export reads like a Claude
 * Code session file and a Claude Code file can be imported.
 *
 * An export has, in log order:
 * - one **message record** per `message.appended`:
 *   `{ uuid, parentUuid, timestamp, isSidechain, sessionId, type: 'user'|'assistant', message }`
 *   (`parentUuid` chains each to the previous one of the same agent, as Claude Code does); a
 *   subagent's records are a sidechain (`isSidechain: true`, plus its `agentId` and the parent's
 *   `parentToolUseId`), and
 * - one **trace record** per log entry: `{ type: 'trace', uuid, sessionId, timestamp, event }`.
 * Trace records carry everything, so re-importing an export replays exactly; message records are
 * the Claude Code view of the same conversation. A file with no trace records (a real Claude
 * Code transcript) imports from its message records alone; record types we do not use
 * (`summary`, `system`, …) are skipped with a note.
 *
 * The API key never leaves: every string of every record is redacted (`redact.ts`) and the
 * finished text is checked once more.
 */
import { z } from 'zod';
import type { Message } from '../messages.ts';
import { hash53 } from '../context/hash.ts';
import type { MessageOrigin, TraceEvent } from '../trace.ts';
import { containsKeyShape, redactedJson } from './redact.ts';
import type { SessionLogEvent } from './types.ts';
import { isProjectRelativePath } from '../util/paths.ts';

export type ExportOptions = {
  sessionId: string;
  /** Strings to remove wherever they appear (the API key in use). */
  secrets?: readonly string[];
};

/** A UUID-shaped id derived from a seed, so the same session exports identically twice. */
export function stableUuid(seed: string): string {
  const hex = (n: number) => n.toString(16).padStart(14, '0').slice(-14);
  const h = hex(hash53(seed)) + hex(hash53(seed, 1)) + hex(hash53(seed, 2));
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const iso = (ts: number) => new Date(Number.isFinite(ts) ? ts : 0).toISOString();

/**
 * Encodes log entries as JSONL lines one at a time, keeping only what chains them (the seq and
 * each agent's last message uuid): a long session is written line by line as it happens instead
 * of as one string of the whole log (the headless runner's peak memory, issue 23 §3).
 */
export class SessionJsonlEncoder {
  private seq = 0;
  // Each agent's messages chain on their own: the main conversation, and one sidechain per subagent.
  private readonly parentUuids = new Map<string, string | null>();
  constructor(private readonly opts: ExportOptions) {}

  /**
   * Moves past an entry already in the file (a resumed session's earlier runs, written by this
   * encoder under the same session id) without encoding it, so the next lines chain on to it.
   */
  skip(event: SessionLogEvent): void {
    const seq = ++this.seq;
    if (event.type === 'message.appended') this.parentUuids.set(event.agentId, stableUuid(`${this.opts.sessionId}:m:${seq}`));
  }

  /** The lines of the next entry (a message record first for `message.appended`, then its trace record). */
  lines(event: SessionLogEvent): string[] {
    const seq = ++this.seq;
    const { opts } = this;
    const timestamp = iso(event.ts);
    const out: string[] = [];
    if (event.type === 'message.appended') {
      const uuid = stableUuid(`${opts.sessionId}:m:${seq}`);
      const sidechain = event.agentId !== 'main';
      const record = {
        uuid,
        parentUuid: this.parentUuids.get(event.agentId) ?? null,
        timestamp,
        isSidechain: sidechain,
        ...(sidechain ? { agentId: event.agentId, ...(event.parentToolUseId ? { parentToolUseId: event.parentToolUseId } : {}) } : {}),
        sessionId: opts.sessionId,
        type: event.message.role,
        message: event.message,
      };
      out.push(redactedJson(record, opts.secrets));
      this.parentUuids.set(event.agentId, uuid);
    }
    const trace = { type: 'trace', uuid: stableUuid(`${opts.sessionId}:t:${seq}`), sessionId: opts.sessionId, timestamp, event };
    out.push(redactedJson(trace, opts.secrets));
    // Belt and braces: redaction runs on every string, so this only trips on a bug. JSON keeps a
    // record on one line, so checking each line checks the whole text.
    for (const line of out) if (containsKeyShape(line)) throw new Error('Refusing to export: an API key is still in the text.');
    return out;
  }
}

/** The export's lines (without their newlines), one entry at a time. */
export function* sessionJsonlLines(log: Iterable<SessionLogEvent>, opts: ExportOptions): Generator<string> {
  const encoder = new SessionJsonlEncoder(opts);
  for (const event of log) yield* encoder.lines(event);
}

export function exportSessionJsonl(log: readonly SessionLogEvent[], opts: ExportOptions): string {
  const lines = [...sessionJsonlLines(log, opts)];
  return lines.length ? `${lines.join('\n')}\n` : '';
}

// ─── Import ─────────────────────────────────────────────────────────────────────────────────

const blockSchema = z.looseObject({ type: z.string() });
const messageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(blockSchema)]),
});
const metaShape = { seq: z.number().int(), ts: z.number(), agentId: z.string().min(1), turn: z.number().int().nonnegative() };

const snapshotDeltaSchema = z.object({
  full: z.boolean(),
  files: z.record(z.string(), z.string()),
  removed: z.array(z.string()),
  dirs: z.array(z.string()).optional(),
  skipped: z.array(z.object({ path: z.string(), size: z.number() })),
});

/** A snapshot path that would leave the project (absolute, or with `..`): validated like every other path, so an import cannot write `../../home/user/x`. */
function snapshotPathOutside(delta: z.infer<typeof snapshotDeltaSchema>): string | undefined {
  return [...Object.keys(delta.files), ...delta.removed, ...(delta.dirs ?? []), ...delta.skipped.map((s) => s.path)].find((p) => !isProjectRelativePath(p));
}

/** Checks the fields replay depends on; other event types need only the common fields. */
const eventSchema = z.union([
  z.looseObject({ type: z.literal('message.appended'), origin: z.string(), message: messageSchema, index: z.number().int().nonnegative(), ...metaShape }),
  z.looseObject({ type: z.literal('history.rewritten'), messages: z.array(messageSchema), layers: z.array(z.string()), messagesBefore: z.number().int(), ...metaShape }),
  z.looseObject({ type: z.literal('session.snapshot'), ts: z.number(), delta: snapshotDeltaSchema }),
  z.looseObject({ type: z.literal('session.workbench'), ts: z.number(), workbench: z.looseObject({}) }),
  z.looseObject({ type: z.literal('session.run_result'), ts: z.number(), reason: z.string(), turns: z.number().int(), usage: z.looseObject({}), messageCount: z.number().int(), contextState: z.looseObject({}) }),
  z.looseObject({
    type: z.string().refine((t) => !['message.appended', 'history.rewritten', 'session.snapshot', 'session.workbench', 'session.run_result'].includes(t), 'malformed event'),
    ...metaShape,
  }),
]);

const traceRecordSchema = z.looseObject({ type: z.literal('trace'), event: eventSchema });
const messageRecordSchema = z.looseObject({
  type: z.enum(['user', 'assistant']),
  uuid: z.string().optional(),
  parentUuid: z.string().nullable().optional(),
  timestamp: z.string().optional(),
  isSidechain: z.boolean().optional(),
  sessionId: z.string().optional(),
  message: messageSchema,
});

export type ImportResult =
  | { ok: true; events: SessionLogEvent[]; sessionId: string | null; notes: string[] }
  | { ok: false; error: string; line?: number };

export type ImportOptions = { maxBytes?: number; maxLines?: number };

export function importSessionJsonl(text: string, opts: ImportOptions = {}): ImportResult {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const maxLines = opts.maxLines ?? 500_000;
  if (text.length > maxBytes) return { ok: false, error: `The file is too large to import (${text.length} characters; the limit is ${maxBytes}).` };
  const lines = text.split(/\r?\n/);
  if (lines.length > maxLines) return { ok: false, error: `The file has too many lines to import (${lines.length}; the limit is ${maxLines}).` };

  const traces: SessionLogEvent[] = [];
  const messages: { message: Message; ts: number; sidechain: boolean }[] = [];
  const skipped = new Map<string, number>();
  let sessionId: string | null = null;

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const lineNo = i + 1;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      return { ok: false, line: lineNo, error: `Line ${lineNo} is not JSON (${(e as Error).message}). A session file has one JSON record per line.` };
    }
    if (!json || typeof json !== 'object' || Array.isArray(json) || typeof (json as { type?: unknown }).type !== 'string') {
      return { ok: false, line: lineNo, error: `Line ${lineNo} is not a session record: each line must be a JSON object with a "type".` };
    }
    const type = (json as { type: string }).type;
    const sid = (json as { sessionId?: unknown }).sessionId;
    if (sessionId === null && typeof sid === 'string') sessionId = sid;
    if (type === 'trace') {
      const r = traceRecordSchema.safeParse(json);
      if (!r.success) return { ok: false, line: lineNo, error: `Line ${lineNo}: the trace record is malformed (${issues(r.error)}).` };
      const outside = r.data.event.type === 'session.snapshot' ? snapshotPathOutside((r.data.event as { delta: z.infer<typeof snapshotDeltaSchema> }).delta) : undefined;
      if (outside !== undefined) return { ok: false, line: lineNo, error: `Line ${lineNo}: the snapshot's path ${JSON.stringify(outside)} leaves the project (absolute, or with ".."); nothing was imported.` };
      traces.push(r.data.event as unknown as SessionLogEvent);
    } else if (type === 'user' || type === 'assistant') {
      const r = messageRecordSchema.safeParse(json);
      if (!r.success) return { ok: false, line: lineNo, error: `Line ${lineNo}: the ${type} record is malformed (${issues(r.error)}).` };
      const ts = r.data.timestamp ? Date.parse(r.data.timestamp) : NaN;
      messages.push({ message: r.data.message as Message, ts: Number.isFinite(ts) ? ts : 0, sidechain: r.data.isSidechain === true });
    } else {
      skipped.set(type, (skipped.get(type) ?? 0) + 1);
    }
  }

  const notes = [...skipped].map(([t, n]) => `skipped ${n} "${t}" record(s) this app does not use`);
  if (traces.length > 0) return { ok: true, events: traces, sessionId, notes };
  if (messages.length === 0) return { ok: false, error: 'The file holds no messages and no trace records: nothing to import.' };
  const main = messages.filter((m) => !m.sidechain);
  if (main.length < messages.length) notes.push(`skipped ${messages.length - main.length} sidechain (subagent) message(s)`);
  notes.push('imported from message records only: the timeline shows the messages, not the steps between them');
  const events: SessionLogEvent[] = main.map((m, i) => ({
    type: 'message.appended',
    origin: originOf(m.message),
    message: m.message,
    index: i,
    seq: i + 1,
    ts: m.ts,
    agentId: 'main',
    turn: 0,
  }) satisfies TraceEvent);
  return { ok: true, events, sessionId, notes };
}

function originOf(m: Message): MessageOrigin {
  if (m.role === 'assistant') return 'assistant';
  return typeof m.content !== 'string' && m.content.some((b) => b.type === 'tool_result') ? 'tool_results' : 'user';
}

function issues(e: z.ZodError): string {
  return e.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') : 'record'}: ${i.message}`)
    .join('; ');
}
