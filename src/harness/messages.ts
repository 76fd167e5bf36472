/**
 * Message and content-block types in the shape of the Anthropic Messages API.
 *
 * These are the exact objects that travel in a request (`messages`, `system`, `tools`) and come
 * back in a response, so a recorded run can be replayed against the real API unchanged.
 */

export type CacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' };

export type TextBlock = { type: 'text'; text: string; cache_control?: CacheControl };

export type ToolUseBlock = {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: CacheControl;
};

/** An image, base64-encoded: the Messages API's `image` block (inside a `tool_result` here). */
export type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string }; cache_control?: CacheControl };

export type ToolResultBlock = {
  type: 'tool_result';
  tool_use_id: string;
  content: string | (TextBlock | ImageBlock)[];
  is_error?: boolean;
  cache_control?: CacheControl;
};

export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string };

export type RedactedThinkingBlock = { type: 'redacted_thinking'; data: string };

export type ContentBlock =
  | TextBlock
  | ToolUseBlock
  | ToolResultBlock
  | ThinkingBlock
  | RedactedThinkingBlock;

/** Blocks an assistant message may hold. */
export type AssistantBlock = TextBlock | ToolUseBlock | ThinkingBlock | RedactedThinkingBlock;

export type Role = 'user' | 'assistant';

export type Message = { role: Role; content: string | ContentBlock[] };

export type UserMessage = { role: 'user'; content: string | ContentBlock[] };

export type AssistantMessage = { role: 'assistant'; content: AssistantBlock[] };

/** A JSON Schema object as sent in `tools[].input_schema`. */
export type JsonSchema = { type: 'object'; [key: string]: unknown };

export type ToolSchema = {
  name: string;
  description: string;
  input_schema: JsonSchema;
  cache_control?: CacheControl;
};

export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

/**
 * Why the API stopped, beyond `stop_reason`: for a `refusal`, the policy category (or null) and a
 * human-readable explanation (or null), as the Messages API sends them in `stop_details`.
 */
export type StopDetails = { type: 'refusal'; category: string | null; explanation: string | null };

export type Usage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
};

/** The request body of `POST /v1/messages` (the subset we use), minus `stream`. */
export type ModelRequest = {
  model: string;
  max_tokens: number;
  system?: string | TextBlock[];
  tools?: ToolSchema[];
  messages: Message[];
  temperature?: number;
};

export const emptyUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    input_tokens: a.input_tokens + (b.input_tokens ?? 0),
    output_tokens: a.output_tokens + (b.output_tokens ?? 0),
    cache_creation_input_tokens: a.cache_creation_input_tokens + (b.cache_creation_input_tokens ?? 0),
    cache_read_input_tokens: a.cache_read_input_tokens + (b.cache_read_input_tokens ?? 0),
  };
}

/** The blocks of a message, whether its content is a bare string or a block list. */
export function blocksOf(message: Message): ContentBlock[] {
  return typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : message.content;
}

export function toolUsesOf(message: Message): ToolUseBlock[] {
  return blocksOf(message).filter((b): b is ToolUseBlock => b.type === 'tool_use');
}

/** The text of a tool result, whichever shape its content has (its images are not text). */
export function toolResultText(block: ToolResultBlock): string {
  return typeof block.content === 'string' ? block.content : block.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

export function textOf(message: Message): string {
  return blocksOf(message)
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
