/**
 * What the agent had read, from a restored log: a resumed or forked session starts with a fresh
 * `FileState`, but its history says the agent read (or wrote) these files, so an `edit` the
 * script plays next must not be refused with "read it first". Only calls that succeeded count.
 */
import type { TraceEvent } from '../../harness/trace.ts';

const SEEN_BY = new Set(['read', 'write', 'edit']);

/** Absolute paths of the files a successful read / write / edit in `events` touched, in order. */
export function pathsSeenInLog(events: readonly TraceEvent[], workdir: string): string[] {
  const ok = new Set(events.flatMap((e) => (e.type === 'tool.result' && !e.isError ? [e.toolUseId] : [])));
  const out: string[] = [];
  for (const e of events) {
    if (e.type !== 'tool.started' || !SEEN_BY.has(e.name) || !ok.has(e.toolUseId)) continue;
    const p = (e.input as { file_path?: unknown } | undefined)?.file_path;
    if (typeof p !== 'string' || p.length === 0) continue;
    const abs = p.startsWith('/') ? p : `${workdir.replace(/\/$/, '')}/${p.replace(/^\.\//, '')}`;
    if (!out.includes(abs)) out.push(abs);
  }
  return out;
}

/** Teaches `files` what a restored log says the agent read, with the files' current content. */
export async function learnReadsOf(
  events: readonly TraceEvent[],
  sandbox: { workdir: string; fs: { readFile(path: string): Promise<string> } },
  files: { recordRead(path: string, content: string): void },
): Promise<void> {
  for (const path of pathsSeenInLog(events, sandbox.workdir)) {
    const content = await sandbox.fs.readFile(path).catch(() => null);
    if (content !== null) files.recordRead(path, content);
  }
}
