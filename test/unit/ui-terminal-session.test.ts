/**
 * The terminal's shell on a real just-bash sandbox: typed keys echo, Enter runs the line with the
 * output streamed to the screen, Up / Down walk the history, `cd` is kept, Ctrl-C stops a running
 * command through the exec's abort, and every command is reported (with the files it changed) so
 * the log can record it as the person's own.
 */
import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { TerminalSession, type TerminalCommand } from '../../src/ui/terminal/terminal-session.ts';
import { explainEvent } from '../../src/ui/explain/explain.ts';
import { summarize } from '../../src/ui/events/summary.ts';

async function term(blocked: string | null = null) {
  const sandbox = await createJustBashSandbox({ files: { 'a.txt': 'alpha\n' } });
  let screen = '';
  const commands: TerminalCommand[] = [];
  let waiting: (() => void) | null = null;
  const t = new TerminalSession({
    sandbox: () => sandbox,
    write: (text) => {
      screen += text;
      waiting?.();
    },
    blocked: () => blocked,
    onCommand: (c) => void commands.push(c),
  });
  /** Resolves once the screen shows `text` (waits for the thing, not for time). */
  const shows = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (screen.includes(text)) {
          waiting = null;
          resolve();
        }
      };
      waiting = check;
      check();
    });
  const type = async (line: string) => {
    t.input(`${line}\r`);
    await t.idle();
  };
  return { t, sandbox, commands, type, shows, screen: () => screen };
}

describe('terminal session', () => {
  it('runs a line and streams its output; reports the command', async () => {
    const { type, screen, commands } = await term();
    await type('cat a.txt');
    expect(screen()).toContain('cat a.txt\r\nalpha\r\n');
    expect(commands).toEqual([{ command: 'cat a.txt', exitCode: 0, interrupted: false, ms: expect.any(Number), changed: [] }]);
  });

  it('reports the files a command changed, and a failing exit code', async () => {
    const { type, commands, screen, sandbox } = await term();
    await type('echo beta > b.txt');
    expect(commands[0]!.changed).toEqual(['b.txt']);
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/b.txt`)).toBe('beta\n');
    await type('cat nope.txt');
    expect(commands[1]!.exitCode).not.toBe(0);
    expect(screen()).toMatch(/exit \d+/);
  });

  it('Up and Down walk the history; Backspace edits the line', async () => {
    const { t, type, commands } = await term();
    await type('echo one');
    await type('echo two');
    t.input('\x1b[A');
    t.input('\x1b[A');
    t.input('\x1b[B');
    t.input('\x7f\x7f\x7fTWO');
    t.input('\r');
    await t.idle();
    expect(commands.map((c) => c.command)).toEqual(['echo one', 'echo two', 'echo TWO']);
  });

  it('keeps the directory of cd', async () => {
    const { t, type, screen } = await term();
    await type('mkdir -p sub');
    await type('cd sub');
    expect(t.cwd).toBe('/home/project/sub');
    await type('pwd');
    expect(screen()).toContain('pwd\r\n/home/project/sub\r\n');
    expect(screen()).toContain('~project/sub');
  });

  it('Ctrl-C stops the running command (the exec abort) and says so', async () => {
    const { t, commands, shows } = await term();
    t.input('echo started; sleep 30\r');
    await shows('started');
    expect(t.busy).toBe(true);
    t.input('\x03');
    await t.idle();
    expect(t.busy).toBe(false);
    expect(commands[0]).toMatchObject({ command: 'echo started; sleep 30', interrupted: true, exitCode: 130 });
  });

  it('Ctrl-C on an idle line clears it; a blocked terminal runs nothing and says why', async () => {
    const { t, commands, screen } = await term('the agent is working: pause or wait for it');
    t.input('echo x');
    t.input('\x03');
    expect(screen()).toContain('^C');
    t.input('echo y\r');
    await t.idle();
    expect(commands).toEqual([]);
    expect(screen()).toContain('not run: the agent is working');
  });

  it('its log event is explained and summarised from its own data', () => {
    const e = { type: 'terminal.command' as const, command: 'npm test', exitCode: 1, interrupted: false, ms: 42, seq: 3, ts: 0, agentId: 'main', turn: 1 };
    expect(explainEvent(e).why).toBe('`npm test` exited 1 after 42 ms.');
    expect(summarize(e)).toBe('$ npm test · exit 1');
  });
});
