/**
 * WebContainer gives one pseudo-terminal stream: colours, cursor moves, window-title (OSC)
 * sequences and CRLF line ends. The model and our traces want plain text.
 */

/* eslint-disable no-control-regex -- matching terminal control characters is the point here */

// CSI (ESC [ … final), OSC (ESC ] … BEL or ESC \), other two-byte escapes, and the C1 CSI form.
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][\s\S]*?(?:\x07|\x1b\\)|\x1b[PX^_][\s\S]*?\x1b\\|\x1b[@-Z\\-_]|\x9b[0-?]*[ -/]*[@-~]/g;

/** Removes ANSI/OSC escape sequences and turns CRLF (and lone CR before LF) into LF. */
export function stripTerminalCodes(text: string): string {
  return text.replace(ESCAPES, '').replace(/\r+\n/g, '\n');
}

/**
 * A streaming version: escape sequences can be split across chunks, so an unfinished one at
 * the end of a chunk is held back until the next chunk completes it.
 */
export class TerminalTextStream {
  private carry = '';

  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = '';
    const lastEsc = Math.max(text.lastIndexOf('\x1b'), text.lastIndexOf('\r'));
    if (lastEsc !== -1 && lastEsc >= text.length - 64) {
      const tail = text.slice(lastEsc);
      if (isUnfinished(tail)) {
        this.carry = tail;
        text = text.slice(0, lastEsc);
      }
    }
    return stripTerminalCodes(text);
  }

  end(): string {
    const rest = this.carry;
    this.carry = '';
    // An escape that never finished is noise; a lone CR at the end is dropped the same way.
    return stripTerminalCodes(rest).replace(/\x1b[\s\S]*$/, '').replace(/\r$/, '');
  }
}

function isUnfinished(tail: string): boolean {
  if (tail === '\r') return true;
  if (!tail.startsWith('\x1b')) return false;
  if (tail.length === 1) return true;
  if (tail[1] === '[') return !/^\x1b\[[0-?]*[ -/]*[@-~]/.test(tail);
  if (tail[1] === ']') return !/\x07|\x1b\\/.test(tail.slice(2));
  return false;
}
