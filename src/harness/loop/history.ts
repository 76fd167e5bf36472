/**
 * History edits that keep a request valid for the API: roles alternate, so content for the user
 * side joins the last message when that one is already the user's.
 */
import type { ContentBlock, Message } from '../messages.ts';
import { blocksOf } from '../messages.ts';

export function withUserContent(messages: Message[], content: ContentBlock[]): Message[] {
  const last = messages[messages.length - 1];
  if (last?.role === 'user') {
    return [...messages.slice(0, -1), { role: 'user', content: [...blocksOf(last), ...content] }];
  }
  return [...messages, { role: 'user', content }];
}
