/**
 * What both JS tool runners do on the harness's side of the worker: answer the worker's file
 * requests from `UserToolFiles` (one message per call — the worker never holds the sandbox), and
 * settle the run once (`hooks-runtime/settle-once.ts`, shared with the JS hook runners): the
 * worker's answer, the timeout, an abort or a failure, whichever comes first, after which the
 * worker is ended and late messages change nothing.
 */
import { z } from 'zod';
import type { UserToolFiles, UserToolResult } from '../../harness/ports.ts';
import { settleRunOnce } from '../../hooks-runtime/settle-once.ts';

export const fileRequest = z.object({ t: z.literal('fs'), id: z.number().int(), op: z.enum(['read', 'write', 'list']), args: z.array(z.unknown()).max(2) });
const doneMessage = z.object({
  t: z.literal('done'),
  result: z.union([
    z.object({ ok: z.literal(true), output: z.string(), logs: z.string() }),
    z.object({ ok: z.literal(false), error: z.string(), logs: z.string() }),
  ]),
});

export type FileReply = { t: 'fs-reply'; id: number; ok: boolean; value?: unknown; error?: string };

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function answerFileRequest(files: UserToolFiles, req: z.infer<typeof fileRequest>): Promise<FileReply> {
  try {
    const [a, b] = req.args;
    const value = req.op === 'read' ? await files.read(String(a)) : req.op === 'write' ? await files.write(String(a), b as string) : await files.list(String(a ?? '.'));
    return { t: 'fs-reply', id: req.id, ok: true, value: value ?? null };
  } catch (e) {
    return { t: 'fs-reply', id: req.id, ok: false, error: errorText(e) };
  }
}

export const timedOut = (ms: number): UserToolResult => ({ ok: false, error: `did not finish within ${ms} ms`, logs: '', timedOut: true, aborted: false });
export const aborted = (): UserToolResult => ({ ok: false, error: 'the run was stopped', logs: '', timedOut: false, aborted: true });
export const workerFailed = (message: string): UserToolResult => ({ ok: false, error: message, logs: '', timedOut: false, aborted: false });

/**
 * One run's bookkeeping. `onMessage` handles whatever the worker posts (file requests are
 * answered through `reply`); `finish` settles the run once.
 */
export function toolRun(o: {
  files: UserToolFiles;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  terminate: () => void;
  reply: (m: FileReply) => void;
  resolve: (r: UserToolResult) => void;
}): { onMessage: (m: unknown) => void; finish: (r: UserToolResult) => void } {
  let settled = false;
  const finish = settleRunOnce<UserToolResult>({
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    terminate: o.terminate,
    timedOut,
    aborted,
    resolve: (r) => {
      settled = true;
      o.resolve(r);
    },
  });
  const onMessage = (m: unknown) => {
    if (settled) return;
    const req = fileRequest.safeParse(m);
    if (req.success) {
      void answerFileRequest(o.files, req.data).then((r) => {
        if (!settled) o.reply(r);
      });
      return;
    }
    const done = doneMessage.safeParse(m);
    if (!done.success) return finish(workerFailed('it sent something that is not a tool result'));
    const r = done.data.result;
    finish(r.ok ? r : { ...r, timedOut: false, aborted: false });
  };
  return { onMessage, finish };
}

export { plainInput } from '../../hooks-runtime/settle-once.ts';
