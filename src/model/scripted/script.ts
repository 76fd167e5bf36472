/**
 * The script format for authored or recorded model turns. One `ScriptedTurn` answers one model
 * call. The scripted client streams it with realistic chunking; the fake Anthropic test server
 * plays the same format over HTTP/SSE, so a scenario can run against either.
 */
import { z } from 'zod';

const usageSchema = z
  .object({
    input_tokens: z.number().int().nonnegative().optional(),
    output_tokens: z.number().int().nonnegative().optional(),
    cache_creation_input_tokens: z.number().int().nonnegative().optional(),
    cache_read_input_tokens: z.number().int().nonnegative().optional(),
  })
  .strict();

/**
 * What the recording saw a tool call return: its result as it went back to the model (the
 * head of it when long, with the whole result's length and fingerprint), so a replay can tell
 * when reality no longer matches (see `recorded-results.ts`). Optional: authored turns and
 * scripts made before recordings kept results have none, and nothing is compared for them.
 */
export const recordedResultSchema = z
  .object({
    content: z.string(),
    /** Omitted when false. */
    is_error: z.boolean().optional(),
    /** When `content` is only the head: the whole (normalised) result's length and FNV-1a digest. */
    full: z.object({ chars: z.number().int().nonnegative(), digest: z.string().regex(/^[0-9a-f]{8}$/) }).strict().optional(),
  })
  .strict();

export const scriptedBlockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }).strict(),
  z.object({ type: z.literal('thinking'), thinking: z.string() }).strict(),
  z
    .object({
      type: z.literal('tool_use'),
      /** Omit to let the player assign `toolu_…` ids. */
      id: z.string().optional(),
      name: z.string(),
      input: z.record(z.string(), z.unknown()),
      result: recordedResultSchema.optional(),
    })
    .strict(),
  /** A tool call whose input JSON is sent verbatim, even if it does not parse (to test recovery). */
  z
    .object({
      type: z.literal('tool_use_raw'),
      id: z.string().optional(),
      name: z.string(),
      partial_json: z.string(),
      result: recordedResultSchema.optional(),
    })
    .strict(),
]);

/** A failure injected in place of (or part-way through) a reply. */
export const scriptedFaultSchema = z.discriminatedUnion('kind', [
  /** An HTTP error before any stream: 429 / 529 / 500 / 401 / 400 … */
  z
    .object({
      kind: z.literal('http'),
      status: z.number().int().min(400).max(599),
      /** Anthropic error type, e.g. `rate_limit_error`, `overloaded_error`. */
      errorType: z.string().optional(),
      message: z.string().optional(),
      retryAfterSeconds: z.number().nonnegative().optional(),
    })
    .strict(),
  /** The stream stops after `afterEvents` SSE events, without `message_stop`. */
  z.object({ kind: z.literal('truncate'), afterEvents: z.number().int().nonnegative() }).strict(),
  /**
   * The stream goes silent after `afterEvents` SSE events and the connection stays open (a hung
   * server); only the caller's abort or timeout ends it.
   */
  z.object({ kind: z.literal('stall'), afterEvents: z.number().int().nonnegative() }).strict(),
  /** An `error` event arrives after `afterEvents` SSE events. */
  z
    .object({
      kind: z.literal('stream_error'),
      afterEvents: z.number().int().nonnegative(),
      errorType: z.string().optional(),
      message: z.string().optional(),
    })
    .strict(),
]);

export const scriptedTurnSchema = z
  .object({
    content: z.array(scriptedBlockSchema).default([]),
    /** Defaults to `tool_use` when the content has a tool call, else `end_turn`. */
    stop_reason: z
      .enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal'])
      .optional(),
    /** With `stop_reason: "refusal"`: the API's `stop_details` (policy category and explanation). */
    stop_details: z
      .object({ type: z.literal('refusal'), category: z.string().nullable().default(null), explanation: z.string().nullable().default(null) })
      .strict()
      .optional(),
    /** Reported usage; missing numbers are estimated from the request and reply sizes. */
    usage: usageSchema.optional(),
    fault: scriptedFaultSchema.optional(),
  })
  .strict();

export type ScriptedBlock = z.infer<typeof scriptedBlockSchema>;
export type RecordedResult = z.infer<typeof recordedResultSchema>;
export type ScriptedFault = z.infer<typeof scriptedFaultSchema>;
export type ScriptedTurn = z.input<typeof scriptedTurnSchema>;
export type ParsedScriptedTurn = z.output<typeof scriptedTurnSchema>;
