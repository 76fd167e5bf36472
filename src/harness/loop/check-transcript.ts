/**
 * Checks that a history is a valid `messages` array for the Messages API: it starts with the
 * user, roles alternate, no message is empty, and every `tool_use` is answered by a `tool_result`
 * in the very next message (and only there). Returns the problems found; empty means valid.
 *
 * A history may end with an assistant tool call only while that call is being run; callers
 * checking a finished run's history should pass `complete: true` (the default).
 */
import type { Message } from '../messages.ts';
import { blocksOf } from '../messages.ts';

export function checkTranscript(messages: Message[], opts: { complete?: boolean } = {}): string[] {
  const complete = opts.complete ?? true;
  const problems: string[] = [];
  if (messages.length === 0) return ['the history is empty'];
  if (messages[0]!.role !== 'user') problems.push('message 0: the history must start with a user message');
  messages.forEach((m, i) => {
    const blocks = blocksOf(m);
    if (blocks.length === 0) problems.push(`message ${i}: empty content`);
    if (i > 0 && messages[i - 1]!.role === m.role) problems.push(`message ${i}: two ${m.role} messages in a row`);
    if (m.role === 'assistant' && blocks.some((b) => b.type === 'tool_result')) {
      problems.push(`message ${i}: a tool_result in an assistant message`);
    }
    if (m.role === 'user' && blocks.some((b) => b.type === 'tool_use')) {
      problems.push(`message ${i}: a tool_use in a user message`);
    }
  });
  messages.forEach((m, i) => {
    const uses = m.role === 'assistant' ? blocksOf(m).filter((b) => b.type === 'tool_use') : [];
    const prev = i > 0 ? messages[i - 1]! : undefined;
    const asked = new Set(
      prev?.role === 'assistant' ? blocksOf(prev).flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [],
    );
    if (m.role === 'user') {
      for (const b of blocksOf(m)) {
        if (b.type === 'tool_result' && !asked.has(b.tool_use_id)) {
          problems.push(`message ${i}: tool_result for ${b.tool_use_id}, which the previous message did not call`);
        }
      }
    }
    if (uses.length === 0) return;
    const next = messages[i + 1];
    if (!next) {
      if (complete) problems.push(`message ${i}: tool calls ${uses.map((u) => u.id).join(', ')} have no results`);
      return;
    }
    const answered = new Set(blocksOf(next).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
    for (const u of uses) {
      if (u.type === 'tool_use' && !answered.has(u.id)) problems.push(`message ${i}: tool call ${u.id} (${u.name}) has no result`);
    }
  });
  return problems;
}
