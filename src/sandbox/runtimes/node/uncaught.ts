/**
 * How an uncaught error is printed, after Node: the failing line with a caret under the
 * column, the error (with its stack and extra fields, as `util.inspect` shows them), and the
 * version line. The model reads this to find the bug, so the file:line comes first.
 */
import type { SnapshotFs } from './snapshot-fs.ts';

export const NODE_VERSION_LINE = 'Node.js v22.0.0 (QuickJS sandbox)';

const FRAME = /\(?((?:\/[^:()\s]+)+):(\d+):(\d+)\)?/;

export function renderUncaught(inspected: string, fs: SnapshotFs): string {
  const frame = FRAME.exec(inspected);
  let head = '';
  if (frame) {
    const [, file = '', lineText = '0', colText = '0'] = frame;
    const lineNo = Number(lineText);
    let source: string | undefined;
    try {
      source = fs.readFile(file).split('\n')[lineNo - 1];
    } catch {
      source = undefined;
    }
    if (source !== undefined) head = `${file}:${lineNo}\n${source}\n${' '.repeat(Math.max(0, Number(colText) - 1))}^\n\n`;
  }
  return `${head}${inspected}\n\n${NODE_VERSION_LINE}\n`;
}
