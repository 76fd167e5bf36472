/**
 * The one protocol between the app and the user-code sandbox frame (`frame-script.ts`), checked
 * on the app's side with zod: anything else that arrives is ignored.
 *
 * app → frame: `run` (start `source` as a worker, post it `data`), `post` (post the running worker
 * one more message), `cancel` (terminate it).
 * frame → app: `ready` (once, at start), `message` (what the worker posted), `error` (the
 * worker failed to load, threw at top level, or its message could not be cloned).
 */
import { z } from 'zod';

export const CHANNEL = 'hp-user-code';

export type RunRequest = { channel: typeof CHANNEL; id: string; kind: 'run'; payload: { source: string; data: unknown } };
export type CancelRequest = { channel: typeof CHANNEL; id: string; kind: 'cancel' };
export type PostRequest = { channel: typeof CHANNEL; id: string; kind: 'post'; payload: unknown };

const ready = z.object({ channel: z.literal(CHANNEL), kind: z.literal('ready') });
const message = z.object({ channel: z.literal(CHANNEL), id: z.string(), kind: z.literal('message'), payload: z.unknown() });
const error = z.object({
  channel: z.literal(CHANNEL),
  id: z.string(),
  kind: z.literal('error'),
  payload: z.object({ message: z.string().max(10_000) }),
});

export const frameReply = z.discriminatedUnion('kind', [ready, message, error]);
export type FrameReply = z.infer<typeof frameReply>;

/** A reply from the frame, or null for anything that is not one (other senders, other shapes). */
export function parseFrameReply(data: unknown): FrameReply | null {
  const r = frameReply.safeParse(data);
  return r.success ? r.data : null;
}
