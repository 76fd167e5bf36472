/**
 * The terminal's shell, without the terminal: keystrokes in (as xterm.js hands them over), text
 * out. One line editor with history (Up / Down), Enter runs the line on the live sandbox with
 * output streamed as it comes, Ctrl-C stops the running command (the exec's abort signal) or
 * clears the line. `cd` is remembered (each exec starts with a fresh shell, so the session keeps
 * the directory itself).
 *
 * These commands are the person's own: no permission rule or hook judges them. What each did is
 * reported through `onCommand` (the run controller records a `terminal.command` event, and a
 * `sandbox.changed` of origin user for the files it touched). No DOM here: Node tests drive it.
 */
import { WORKDIR, type Sandbox } from '../../harness/ports.ts';

export type TerminalCommand = { command: string; exitCode: number; interrupted: boolean; ms: number; changed: string[] };

export type TerminalDeps = {
  sandbox: () => Sandbox | null;
  /** Text for the screen (xterm's `write`): `\r\n` line ends, ANSI colours. */
  write: (text: string) => void;
  /** Why commands cannot run now (the agent is working, stepped back …), or null. */
  blocked: () => string | null;
  onCommand: (c: TerminalCommand) => Promise<void> | void;
  now?: () => number;
};

const DIM = '\x1b[2m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';
const MAX_HISTORY = 200;

export class TerminalSession {
  private line = '';
  private history: string[] = [];
  /** Position while browsing history; `history.length` is the line being typed. */
  private at = 0;
  private draft = '';
  private running: AbortController | null = null;
  private done: Promise<void> = Promise.resolve();
  cwd: string | null = null;

  constructor(private readonly deps: TerminalDeps) {}

  get busy(): boolean {
    return this.running !== null;
  }

  /** Finishes when the command in flight (if any) has ended and been reported. */
  idle(): Promise<void> {
    return this.done;
  }

  prompt(): void {
    const sb = this.deps.sandbox();
    const root = sb?.workdir ?? WORKDIR;
    const dir = this.cwd ?? root;
    const short = dir.startsWith(root) ? `~project${dir.slice(root.length)}` : dir;
    this.deps.write(`${DIM}${short}${RESET} $ `);
  }

  /** Keystrokes as xterm's `onData` gives them (one key, or a pasted run of text). */
  input(data: string): void {
    if (data === '\x03') return this.interrupt();
    if (this.running) return; // typed while a command runs: dropped (no stdin for commands here)
    if (data === '\x1b[A') return this.browse(-1);
    if (data === '\x1b[B') return this.browse(1);
    if (data.startsWith('\x1b')) return; // other escape sequences (left/right, …) are not supported
    for (const ch of data) {
      if (ch === '\r' || ch === '\n') {
        this.enter();
        if (this.running) return; // the rest of a paste after a newline is dropped while it runs
      } else if (ch === '\x7f' || ch === '\b') {
        if (this.line.length > 0) {
          this.line = this.line.slice(0, -1);
          this.deps.write('\b \b');
        }
      } else if (ch >= ' ') {
        this.line += ch;
        this.deps.write(ch);
      }
    }
  }

  private replaceLine(text: string): void {
    this.deps.write('\b \b'.repeat(this.line.length) + text);
    this.line = text;
  }

  private browse(dir: -1 | 1): void {
    if (this.history.length === 0) return;
    if (this.at === this.history.length) this.draft = this.line;
    this.at = Math.min(this.history.length, Math.max(0, this.at + dir));
    this.replaceLine(this.at === this.history.length ? this.draft : this.history[this.at]!);
  }

  private interrupt(): void {
    if (this.running) {
      this.deps.write('^C\r\n');
      this.running.abort();
      return;
    }
    this.deps.write('^C\r\n');
    this.line = '';
    this.at = this.history.length;
    this.prompt();
  }

  private enter(): void {
    const command = this.line.trim();
    this.line = '';
    this.deps.write('\r\n');
    if (command === '') return this.prompt();
    if (this.history.at(-1) !== command) this.history.push(command);
    if (this.history.length > MAX_HISTORY) this.history.shift();
    this.at = this.history.length;
    const why = this.deps.blocked();
    const sb = this.deps.sandbox();
    if (why || !sb) {
      this.deps.write(`${RED}not run: ${why ?? 'the sandbox is still starting'}${RESET}\r\n`);
      return this.prompt();
    }
    this.done = this.exec(sb, command);
  }

  private async exec(sb: Sandbox, command: string): Promise<void> {
    const abort = new AbortController();
    this.running = abort;
    const now = this.deps.now ?? Date.now;
    const t0 = now();
    const changed = new Set<string>();
    const unwatch = sb.fs.watch((e) => e.paths.forEach((p) => changed.add(p)));
    const cwd = this.cwd ?? sb.workdir;
    const cd = /^cd(?:\s+(.*))?$/.exec(command);
    let streamed = false;
    try {
      // `cd` changes this session's directory: ask the shell where it lands, keep that.
      const r = await sb.exec(cd ? `cd ${cd[1] ?? '~'} && pwd` : command, {
        cwd,
        signal: abort.signal,
        ...(cd ? {} : { onOutput: (c: { stream: 'stdout' | 'stderr'; text: string }) => ((streamed = true), this.deps.write(toScreen(c.text, c.stream))) }),
      });
      // A sandbox that does not stream: show what it returned at the end.
      if (!cd && !streamed) this.deps.write(toScreen(r.stdout, 'stdout') + toScreen(r.stderr, 'stderr'));
      if (cd && r.exitCode === 0) this.cwd = r.stdout.trim();
      else if (cd) this.deps.write(toScreen(r.stderr, 'stderr'));
      // An abort: the sandbox's own stderr already says it was stopped.
      if (!r.aborted && r.exitCode !== 0) this.deps.write(`${DIM}exit ${r.exitCode}${RESET}\r\n`);
      unwatch();
      const rel = [...changed].map((p) => (p.startsWith(`${sb.workdir}/`) ? p.slice(sb.workdir.length + 1) : p)).sort();
      await this.deps.onCommand({ command, exitCode: r.exitCode, interrupted: r.aborted, ms: Math.round(now() - t0), changed: rel });
    } finally {
      unwatch();
      this.running = null;
      this.prompt();
    }
  }
}

/** Sandbox text → terminal text: `\n` → `\r\n`, stderr in red. */
function toScreen(text: string, stream: 'stdout' | 'stderr'): string {
  const t = text.replace(/\r?\n/g, '\r\n');
  return stream === 'stderr' && t ? `${RED}${t}${RESET}` : t;
}
