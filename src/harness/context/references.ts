/**
 * The text that stands in for a tool result whose original moved to the context state. It says
 * what ran, how big the output was, a preview, and how to get it back (`read_tool_result`), so the
 * model knows the tool ran and can fetch the details if it still needs them.
 */
import type { ToolResultBlock } from '../messages.ts';
import { toolResultText } from './tokens.ts';

const REF_PREFIX = '[tool result stored as ref ';

/**
 * `originalChars`: the size of the output before a tool cut it (from the tool's own truncation
 * note), so the model is told the true size even though the stored result is the cut one.
 * `images`: image blocks the result had. Only the text is stored, so they are gone for good (a
 * cleared image saves the most tokens); the reference says so, so neither the model nor the
 * reader of the log thinks the result was text only, and `read_tool_result` will not bring them back.
 */
export function referenceText(opts: { toolUseId: string; chars: number; originalChars?: number; images?: number; preview: string; why: string }): string {
  const preview = opts.preview ? `; first lines:\n${opts.preview}\n…` : '';
  const cut = opts.originalChars !== undefined && opts.originalChars > opts.chars ? `, cut by the tool from ${opts.originalChars.toLocaleString('en-US')} chars of output` : '';
  const images = opts.images ? ` [${opts.images} image${opts.images === 1 ? '' : 's'} cleared]` : '';
  return (
    `${REF_PREFIX}${opts.toolUseId}; ${opts.chars.toLocaleString('en-US')} chars${cut}${images} (${opts.why})${preview}\n` +
    `use read_tool_result with tool_use_id "${opts.toolUseId}" to see it]`
  );
}

/** How many image blocks a tool result holds (what a reference to it drops). */
export function imagesIn(block: ToolResultBlock): number {
  return typeof block.content === 'string' ? 0 : block.content.filter((b) => b.type === 'image').length;
}

export function isReference(block: ToolResultBlock): boolean {
  return toolResultText(block).startsWith(REF_PREFIX);
}

/** The first `lines` lines (at most `maxChars`) of a text. */
export function headLines(text: string, lines: number, maxChars: number): string {
  if (lines <= 0) return '';
  const head = text.split('\n', lines).join('\n');
  return head.length > maxChars ? `${head.slice(0, maxChars)}…` : head;
}
