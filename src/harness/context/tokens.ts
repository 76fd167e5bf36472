/**
 * Token accounting. The estimator is deliberately simple and documented so a learner can redo it
 * by hand: **one token per four characters** of the text the model reads (English and code run
 * 3.5–4.5 chars/token with Claude's tokenizer), plus a small fixed overhead per block and message
 * for the framing the API adds. Structured parts (tool inputs, tool schemas) count their JSON.
 *
 * When a live model is connected, the real numbers (`usage.input_tokens + cache_*` of a response,
 * or `countTokens`) go beside the estimate through {@link compareEstimate}.
 *
 * Estimates are memoised per block object: history blocks are never mutated (layers copy what
 * they change), so a block's count is computed once however many calls it travels in.
 */
import { toolResultText, type ContentBlock, type Message, type TextBlock, type ToolResultBlock, type ToolSchema } from '../messages.ts';

export const CHARS_PER_TOKEN = 4;
/** Framing per content block (type tags, ids). */
export const BLOCK_OVERHEAD_TOKENS = 3;
/** Framing per message (role, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/**
 * An image in a tool result: the API counts about width × height / 750 tokens, at most ~1,600 for
 * an image it does not scale down. The estimate does not decode the image, so it takes the cap.
 */
export const IMAGE_TOKENS_ESTIMATE = 1600;
export const ESTIMATOR_NAME = 'chars/4 + framing (+1600 per image)';

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export { toolResultText } from '../messages.ts';

/** How many images a tool result carries. */
export function toolResultImages(block: ToolResultBlock): number {
  return typeof block.content === 'string' ? 0 : block.content.filter((b) => b.type === 'image').length;
}

/** The characters of a block the model reads (what the estimate counts). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return block.name + JSON.stringify(block.input);
    case 'tool_result':
      return toolResultText(block);
    case 'thinking':
      return block.thinking;
    case 'redacted_thinking':
      return block.data;
  }
}

const blockMemo = new WeakMap<object, number>();

/** A copy of `original` that differs only in its `cache_control` marker counts the same (if `original` was counted). */
export function countsLike(copy: object, original: object): void {
  const n = blockMemo.get(original);
  if (n !== undefined) blockMemo.set(copy, n);
}

export function blockTokens(block: ContentBlock): number {
  const hit = blockMemo.get(block);
  if (hit !== undefined) return hit;
  const images = block.type === 'tool_result' ? toolResultImages(block) : 0;
  const n = estimateTextTokens(blockText(block)) + BLOCK_OVERHEAD_TOKENS + images * (IMAGE_TOKENS_ESTIMATE + BLOCK_OVERHEAD_TOKENS);
  blockMemo.set(block, n);
  return n;
}

export function messageTokens(message: Message): number {
  if (typeof message.content === 'string') {
    return estimateTextTokens(message.content) + BLOCK_OVERHEAD_TOKENS + MESSAGE_OVERHEAD_TOKENS;
  }
  let n = MESSAGE_OVERHEAD_TOKENS;
  for (const b of message.content) n += blockTokens(b);
  return n;
}

export function messagesTokens(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) n += messageTokens(m);
  return n;
}

export function toolSchemaTokens(tool: ToolSchema): number {
  const hit = blockMemo.get(tool);
  if (hit !== undefined) return hit;
  const n = estimateTextTokens(tool.name + tool.description + JSON.stringify(tool.input_schema)) + BLOCK_OVERHEAD_TOKENS;
  blockMemo.set(tool, n);
  return n;
}

export function systemTokens(system: string | readonly TextBlock[] | undefined): number {
  if (system === undefined) return 0;
  if (typeof system === 'string') return system === '' ? 0 : estimateTextTokens(system) + BLOCK_OVERHEAD_TOKENS;
  let n = 0;
  for (const b of system) n += blockTokens(b);
  return n;
}

/** Estimated tokens per part of a request. */
export type PartTokens = { system: number; tools: number; memory: number; messages: number; total: number };

export function requestTokens(parts: {
  system?: string | readonly TextBlock[];
  tools?: readonly ToolSchema[];
  messages: readonly Message[];
  memory?: string;
}): PartTokens {
  const system = systemTokens(parts.system);
  const tools = (parts.tools ?? []).reduce((n, t) => n + toolSchemaTokens(t), 0);
  const memory = parts.memory ? estimateTextTokens(parts.memory) + BLOCK_OVERHEAD_TOKENS : 0;
  const messages = messagesTokens(parts.messages);
  return { system, tools, memory, messages, total: system + tools + memory + messages };
}

/** An estimate set beside the real count, and how far off it was. */
export type EstimateComparison = {
  estimate: number;
  actual: number;
  /** estimate − actual (positive: we over-estimated). */
  error: number;
  /** error ÷ actual; 0 when actual is 0 and so is the estimate. */
  relativeError: number;
};

/**
 * Compares an estimate with the real input-token count (`input_tokens + cache_read_input_tokens +
 * cache_creation_input_tokens` of a response, or `countTokens`).
 */
export function compareEstimate(estimate: number, actual: number): EstimateComparison {
  const error = estimate - actual;
  const relativeError = actual === 0 ? (estimate === 0 ? 0 : 1) : error / actual;
  return { estimate, actual, error, relativeError };
}

/** Total input tokens a response reports (the three input fields summed). */
export function actualInputTokens(usage: {
  input_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
}): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

export function blocksTokens(blocks: readonly ContentBlock[]): number {
  return blocks.reduce((n, b) => n + blockTokens(b), 0);
}
