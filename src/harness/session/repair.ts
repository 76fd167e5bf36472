/**
 * `repairTranscript`: makes a history rebuilt from a log that stopped anywhere (a reload mid-run,
 * a fork at a middle event) valid for the Messages API again, so the conversation can go on.
 *
 * - Every `tool_use` without a `tool_result` gets a synthetic error result with the loop's own
 *   "interrupted" wording, placed where the API wants it: in the next user message, after any
 *   results already there and before other content.
 * - Empty messages (an assistant reply cut before its first word) are dropped.
 * - Results that answer no call of the message before them are dropped, and two messages of the
 *   same role that end up next to each other are merged, so roles alternate.
 * The result passes `checkTranscript`; each change is described in `repairs` for the UI.
 */
import type { AssistantBlock, ContentBlock, Message, ToolResultBlock } from '../messages.ts';
import { blocksOf } from '../messages.ts';
import { INTERRUPTED_RESULT } from '../loop/meta-messages.ts';

export type RepairResult = { messages: Message[]; repairs: string[] };

const isEmptyBlock = (b: ContentBlock) => b.type === 'text' && b.text.trim() === '';

const interrupted = (id: string): ToolResultBlock => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true });

export function repairTranscript(messages: readonly Message[]): RepairResult {
  const repairs: string[] = [];
  // `original` is kept while a message passes unchanged, so untouched messages stay identical.
  const out: { role: Message['role']; blocks: ContentBlock[]; original?: Message }[] = [];

  /** Tool calls of the last output message that still want a result. */
  const openCalls = (): string[] => {
    const last = out[out.length - 1];
    return last?.role === 'assistant' ? last.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])) : [];
  };
  const closeOpenCalls = (): void => {
    const ids = openCalls();
    if (ids.length === 0) return;
    out.push({ role: 'user', blocks: ids.map(interrupted) });
    repairs.push(`closed ${ids.length} unanswered tool call(s) (${ids.join(', ')}) with an "interrupted" result`);
  };

  messages.forEach((m, i) => {
    let blocks = blocksOf(m).filter((b) => !isEmptyBlock(b));
    let untouched = blocks.length === blocksOf(m).length;
    if (m.role === 'user') {
      const asked = new Set(openCalls());
      const orphans = blocks.filter((b) => b.type === 'tool_result' && !asked.has(b.tool_use_id));
      if (orphans.length > 0) {
        blocks = blocks.filter((b) => !orphans.includes(b));
        untouched = false;
        repairs.push(`message ${i}: dropped ${orphans.length} result(s) for calls the previous message did not make`);
      }
      if (asked.size > 0) {
        const answered = new Set(blocks.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
        const missing = [...asked].filter((id) => !answered.has(id));
        if (missing.length > 0) {
          const results = blocks.filter((b) => b.type === 'tool_result');
          const rest = blocks.filter((b) => b.type !== 'tool_result');
          blocks = [...results, ...missing.map(interrupted), ...rest];
          untouched = false;
          repairs.push(`message ${i}: closed ${missing.length} unanswered tool call(s) (${missing.join(', ')}) with an "interrupted" result`);
        }
      }
    } else {
      closeOpenCalls();
    }
    if (blocks.length === 0) {
      repairs.push(`message ${i}: dropped an empty ${m.role} message`);
      return;
    }
    const prev = out[out.length - 1];
    if (prev && prev.role === m.role) {
      prev.blocks.push(...blocks);
      delete prev.original;
      repairs.push(`message ${i}: merged into the ${m.role} message before it`);
    } else {
      out.push({ role: m.role, blocks, ...(untouched ? { original: m } : {}) });
    }
  });
  closeOpenCalls();

  return {
    messages: out.map((m) =>
      m.original
        ? m.original
        : m.role === 'assistant' ? { role: 'assistant', content: m.blocks as AssistantBlock[] } : { role: 'user', content: m.blocks },
    ),
    repairs,
  };
}
