/**
 * Reading and rewriting a history without breaking its shape. A valid history is
 * `user, (assistant, user)*`: each **exchange** is an assistant message and the user message that
 * answers it (its tool results, perhaps with the person's next words). Layers that drop or hide
 * messages work in whole exchanges, so a `tool_use` is never separated from its `tool_result`.
 */
import type { ContentBlock, Message, ToolResultBlock } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { hash53 } from './hash.ts';
import { toolResultText } from './tokens.ts';

export type Exchange = { from: number; to: number };

/** Every (assistant, user) pair after the first message, oldest first. */
export function exchangesOf(messages: readonly Message[]): Exchange[] {
  const out: Exchange[] = [];
  for (let i = 1; i + 1 < messages.length; i++) {
    if (messages[i]!.role === 'assistant' && messages[i + 1]!.role === 'user') {
      out.push({ from: i, to: i + 1 });
      i++;
    }
  }
  return out;
}

/** tool_use id → tool name, over the whole history. */
export function toolNamesById(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const b of m.content) if (b.type === 'tool_use') names.set(b.id, b.name);
  }
  return names;
}

/** Where each tool result sits, oldest first. */
export type ResultSite = { messageIndex: number; blockIndex: number; block: ToolResultBlock };

export function toolResultSites(messages: readonly Message[]): ResultSite[] {
  const out: ResultSite[] = [];
  messages.forEach((m, messageIndex) => {
    if (m.role !== 'user' || typeof m.content === 'string') return;
    m.content.forEach((block, blockIndex) => {
      if (block.type === 'tool_result') out.push({ messageIndex, blockIndex, block });
    });
  });
  return out;
}

/**
 * Replaces tool-result blocks by `tool_use_id`, copying only the messages that change (the rest
 * are shared, so their memoised token counts and cache fingerprints stay valid).
 */
export function replaceToolResults(messages: readonly Message[], replacements: ReadonlyMap<string, ToolResultBlock>): Message[] {
  if (replacements.size === 0) return [...messages];
  return messages.map((m) => {
    if (m.role !== 'user' || typeof m.content === 'string') return m;
    if (!m.content.some((b) => b.type === 'tool_result' && replacements.has(b.tool_use_id))) return m;
    const content: ContentBlock[] = m.content.map((b) =>
      b.type === 'tool_result' ? (replacements.get(b.tool_use_id) ?? b) : b,
    );
    return { role: m.role, content };
  });
}

/** Appends text blocks to a user message (a copy). */
export function withAppendedText(message: Message, texts: readonly string[]): Message {
  return { role: message.role, content: [...blocksOf(message), ...texts.map((text) => ({ type: 'text' as const, text }))] };
}

/** A short fingerprint of a message, for detecting that stored ranges no longer match. */
export function fingerprint(message: Message | undefined): string {
  return message ? hash53(JSON.stringify(message)).toString(36) : '';
}

/** The first lines of a text, at most `maxChars`, for previews in references and events. */
export function previewOf(text: string, lines = 3, maxChars = 240): string {
  const head = text.split('\n', lines).join('\n');
  return head.length > maxChars ? `${head.slice(0, maxChars)}…` : head;
}

/** A one-line preview of a message for the UI. */
export function messagePreview(message: Message | undefined, maxChars = 120): string {
  if (!message) return '';
  const text = blocksOf(message)
    .map((b) =>
      b.type === 'text' ? b.text : b.type === 'tool_use' ? `[${b.name} ${JSON.stringify(b.input)}]` : b.type === 'tool_result' ? `[result ${toolResultText(b).slice(0, 60)}]` : `[${b.type}]`,
    )
    .join(' ')
    .replace(/\s+/g, ' ');
  return `${message.role}: ${text.length > maxChars ? `${text.slice(0, maxChars)}…` : text}`;
}
