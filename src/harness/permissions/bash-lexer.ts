/**
 * A small shell lexer, enough to judge permissions: it splits a command line into simple commands
 * at `&&`, `||`, `;`, `|`, `|&`, `&`, newlines and subshell parentheses, respecting single and
 * double quotes, backslash escapes, `$(…)`, backticks, `${…}`, `$((…))`, here-documents and
 * comments. Every command substitution's inner command is lexed too and returned as its own part,
 * because it runs as well. Redirections are separated from the words.
 *
 * It is not a shell: it does not expand variables or globs. Unbalanced quotes or substitutions
 * are reported as an error, and the caller asks instead of guessing.
 */

import type { ShellRedirect, ShellWord, SimpleCommand } from './shell-parser.ts';

export type Word = ShellWord;
export type Redirect = ShellRedirect;
export type RawPart = SimpleCommand;

export type LexResult = { ok: true; parts: RawPart[] } | { ok: false; error: string };

class LexError extends Error {}

const SEPARATORS = new Set([';', '&', '|', '\n', '(', ')']);

/** Splits `src` into simple commands (see the module comment). Never throws. */
export function lexCommand(src: string): LexResult {
  try {
    const parts: RawPart[] = [];
    new Lexer(src, parts, 'top').run();
    return { ok: true, parts };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

class Lexer {
  private i = 0;
  private words: Word[] = [];
  private redirects: Redirect[] = [];
  private partStart = 0;
  private pendingHeredocs: { delim: string; strip: boolean }[] = [];
  private readonly subParts: RawPart[] = [];

  constructor(
    private readonly s: string,
    private readonly out: RawPart[],
    private readonly origin: RawPart['origin'],
  ) {}

  run(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === ' ' || c === '\t') {
        this.i++;
        continue;
      }
      if (c === '\\' && s[this.i + 1] === '\n') {
        this.i += 2;
        continue;
      }
      if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
        continue;
      }
      if (SEPARATORS.has(c)) {
        if (c === '&' && s[this.i + 1] === '>') {
          this.readRedirect('');
          continue;
        }
        this.endPart();
        if (c === '\n') {
          this.i++;
          this.skipHeredocBodies();
        } else if ((c === '&' && s[this.i + 1] === '&') || (c === '|' && (s[this.i + 1] === '|' || s[this.i + 1] === '&'))) {
          this.i += 2;
        } else if (c === ';' && s[this.i + 1] === ';') {
          this.i += 2;
        } else {
          this.i++;
        }
        this.partStart = this.i;
        continue;
      }
      if (c === '>' || c === '<') {
        if (s[this.i + 1] === '(') {
          // Process substitution: a command that runs, used as a file name.
          this.readWord();
          continue;
        }
        this.readRedirect('');
        continue;
      }
      const start = this.i;
      const word = this.readWord();
      // `2>file`, `2>&1`: a word of digits directly followed by a redirection operator is its fd.
      if (/^\d+$/.test(word.raw) && this.i === start + word.raw.length && (s[this.i] === '>' || s[this.i] === '<')) {
        this.readRedirect(word.raw);
        continue;
      }
      this.words.push(word);
    }
    if (this.pendingHeredocs.length > 0) this.skipHeredocBodies();
    this.endPart();
    this.out.push(...this.subParts);
  }

  private endPart(): void {
    if (this.words.length > 0 || this.redirects.length > 0) {
      const text = this.s.slice(this.partStart, this.i).trim();
      this.out.push({ words: this.words, redirects: this.redirects, text, origin: this.origin });
    }
    this.words = [];
    this.redirects = [];
  }

  private readRedirect(fd: string): void {
    const s = this.s;
    let op: string;
    if (s.startsWith('&>>', this.i)) op = '&>>';
    else if (s.startsWith('&>', this.i)) op = '&>';
    else if (s.startsWith('<<<', this.i)) op = '<<<';
    else if (s.startsWith('<<-', this.i)) op = '<<-';
    else if (s.startsWith('<<', this.i)) op = '<<';
    else if (s.startsWith('>>', this.i)) op = '>>';
    else if (s.startsWith('>|', this.i)) op = '>|';
    else if (s.startsWith('<>', this.i)) op = '<>';
    else if (s.startsWith('>&', this.i)) op = '>&';
    else if (s.startsWith('<&', this.i)) op = '<&';
    else op = s[this.i]!;
    this.i += op.length;
    while (s[this.i] === ' ' || s[this.i] === '\t') this.i++;
    if (this.i >= s.length || SEPARATORS.has(s[this.i]!) || s[this.i] === '>' || s[this.i] === '<') {
      throw new LexError(`a redirection "${fd}${op}" has no target`);
    }
    const target = this.readWord();
    const fdDup = (op === '>&' || op === '<&') && /^(\d+|-)$/.test(target.value);
    if (op === '<<' || op === '<<-') this.pendingHeredocs.push({ delim: target.value, strip: op === '<<-' });
    // `>&file` (no digits) is bash's `&>file`.
    const normOp = op === '>&' && !fdDup ? '&>' : op;
    this.redirects.push({ op: normOp, target: target.value, fdDup });
  }

  /** After a newline: skip the bodies of here-documents opened on the line just ended. */
  private skipHeredocBodies(): void {
    const s = this.s;
    while (this.pendingHeredocs.length > 0) {
      const { delim, strip } = this.pendingHeredocs.shift()!;
      for (;;) {
        if (this.i >= s.length) return;
        const nl = s.indexOf('\n', this.i);
        const end = nl === -1 ? s.length : nl;
        let line = s.slice(this.i, end);
        if (strip) line = line.replace(/^\t+/, '');
        this.i = nl === -1 ? s.length : nl + 1;
        if (line === delim) break;
      }
    }
    this.partStart = this.i;
  }

  /** Reads one word starting at `this.i` (quotes, escapes and substitutions included). */
  private readWord(): Word {
    const s = this.s;
    const start = this.i;
    let value = '';
    let dynamic = false;
    while (this.i < s.length) {
      const c = s[this.i]!;
      if (c === ' ' || c === '\t' || SEPARATORS.has(c)) break;
      if ((c === '>' || c === '<') && s[this.i + 1] !== '(') break;
      if (c === '\\') {
        if (s[this.i + 1] === '\n') {
          this.i += 2;
          continue;
        }
        value += s[this.i + 1] ?? '';
        this.i += 2;
        continue;
      }
      if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        if (end === -1) throw new LexError('a single quote is not closed');
        value += s.slice(this.i + 1, end);
        this.i = end + 1;
        continue;
      }
      if (c === '"') {
        this.i++;
        for (;;) {
          if (this.i >= s.length) throw new LexError('a double quote is not closed');
          const d = s[this.i]!;
          if (d === '"') {
            this.i++;
            break;
          }
          if (d === '\\' && '"\\$`\n'.includes(s[this.i + 1] ?? '')) {
            value += s[this.i + 1];
            this.i += 2;
            continue;
          }
          if (d === '$' || d === '`') {
            const sub = this.readDollarOrBacktick();
            if (sub !== null) {
              value += sub;
              dynamic = true;
              continue;
            }
          }
          value += d;
          this.i++;
        }
        continue;
      }
      if (c === '$' || c === '`' || ((c === '<' || c === '>') && s[this.i + 1] === '(')) {
        const sub = this.readDollarOrBacktick();
        if (sub !== null) {
          value += sub;
          dynamic = true;
          continue;
        }
      }
      value += c;
      this.i++;
    }
    return { raw: s.slice(start, this.i), value, dynamic };
  }

  /**
   * At `$…`, a backtick or `<(`: consumes a substitution, variable or arithmetic expression and
   * returns its source text; inner commands are lexed into `subParts`. Returns null for a lone `$`.
   */
  private readDollarOrBacktick(): string | null {
    const s = this.s;
    const start = this.i;
    const c = s[this.i]!;
    if (c === '`') {
      let j = this.i + 1;
      let inner = '';
      for (;;) {
        if (j >= s.length) throw new LexError('a backtick command substitution is not closed');
        if (s[j] === '\\' && j + 1 < s.length) {
          inner += s[j + 1];
          j += 2;
          continue;
        }
        if (s[j] === '`') break;
        inner += s[j];
        j++;
      }
      this.i = j + 1;
      this.lexInner(inner);
      return s.slice(start, this.i);
    }
    const next = s[this.i + 1];
    if (c === '$' && next === '(' && s[this.i + 2] === '(') {
      // Arithmetic: no command runs.
      this.i = this.matchClose(this.i + 3, '(', ')', 2);
      return s.slice(start, this.i);
    }
    if (next === '(') {
      const end = this.matchClose(this.i + 2, '(', ')', 1);
      this.lexInner(s.slice(this.i + 2, end - 1));
      this.i = end;
      return s.slice(start, this.i);
    }
    if (c === '$' && next === '{') {
      this.i = this.matchClose(this.i + 2, '{', '}', 1);
      return s.slice(start, this.i);
    }
    if (c === '$' && next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next)) {
      let j = this.i + 1;
      if (/[A-Za-z_]/.test(next)) while (j < s.length && /[A-Za-z0-9_]/.test(s[j]!)) j++;
      else j++;
      this.i = j;
      return s.slice(start, this.i);
    }
    return null;
  }

  /** Index just past the `depth`-th unmatched `close`, skipping quoted text. */
  private matchClose(from: number, open: string, close: string, depth: number): number {
    const s = this.s;
    let j = from;
    let d = depth;
    while (j < s.length) {
      const ch = s[j]!;
      if (ch === '\\') {
        j += 2;
        continue;
      }
      if (ch === "'") {
        const end = s.indexOf("'", j + 1);
        if (end === -1) throw new LexError('a single quote is not closed');
        j = end + 1;
        continue;
      }
      if (ch === '"') {
        j++;
        while (j < s.length && s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
        if (j >= s.length) throw new LexError('a double quote is not closed');
        j++;
        continue;
      }
      if (ch === open) d++;
      else if (ch === close) {
        d--;
        if (d === 0) return j + 1;
      }
      j++;
    }
    throw new LexError(`"${open}" is not closed by "${close}"`);
  }

  private lexInner(inner: string): void {
    const parts: RawPart[] = [];
    new Lexer(inner, parts, 'substitution').run();
    for (const p of parts) this.subParts.push({ ...p, origin: 'substitution' });
  }
}
