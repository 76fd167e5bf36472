/**
 * `seq` that keeps its output at the sandbox's limit. just-bash's own `seq` builds the whole
 * sequence first and throws once it passes the loop limit (100,000 numbers by default) — the
 * script stops with exit 126 and every number is lost, so `seq 1 180000 | tail -3` prints
 * nothing. This wrapper runs the bundled `seq`; when it hits the limit, it runs it again up to
 * the last number the limit allows, prints those, and says on stderr that the limit cut it
 * (exit 1, like a command that failed part-way, so the rest of the script still runs).
 */
import type { Command, CommandContext, ExecResult } from 'just-bash';

const LIMIT_ERROR = /seq: iteration limit exceeded \((\d+)\)/;

type Operands = { first: number; incr: number; last: number; at: number; decimals: number };

/** The numeric operands FIRST [INCR] LAST at the end of the arguments (what GNU seq takes). */
function operands(args: readonly string[]): Operands | null {
  const numeric = (s: string | undefined) => s !== undefined && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s);
  let n = 0;
  while (n < 3 && numeric(args[args.length - 1 - n])) n++;
  if (n === 0) return null;
  const ops = args.slice(args.length - n).map(Number);
  const decimals = Math.max(...args.slice(args.length - n, args.length - 1).map((s) => (s.split('.')[1] ?? '').replace(/[eE].*/, '').length), 0);
  const [first, incr, last] = n === 1 ? [1, 1, ops[0]!] : n === 2 ? [ops[0]!, 1, ops[1]!] : [ops[0]!, ops[1]!, ops[2]!];
  return { first, incr, last, at: args.length - 1, decimals };
}

function limitOf(e: unknown): number | null {
  const m = LIMIT_ERROR.exec(e instanceof Error ? e.message : String(e));
  return m ? Number(m[1]) : null;
}

export function createSeqCommand(): Command {
  return {
    name: 'seq',
    async execute(args: string[], ctx: CommandContext): Promise<ExecResult> {
      const original = ctx.origCommand;
      if (!original) return { stdout: '', stderr: 'seq: not available\n', exitCode: 127 };
      let limit: number | null;
      try {
        return await original(args);
      } catch (e) {
        limit = limitOf(e);
        if (limit === null) throw e;
      }
      const ops = operands(args);
      if (!ops || ops.incr === 0) throw new Error(`seq: iteration limit exceeded (${limit})`);
      // The last number the limit allows, written with the operands' precision so the output matches.
      const lastAllowed = (ops.first + (limit - 1) * ops.incr).toFixed(ops.decimals);
      const cut = await original([...args.slice(0, ops.at), lastAllowed]);
      const asked = Math.floor((ops.last - ops.first) / ops.incr + 1e-10) + 1;
      return {
        stdout: cut.stdout,
        stderr: `${cut.stderr}seq: stopped at ${lastAllowed}: the sandbox's limit is ${limit.toLocaleString('en-US')} numbers (asked for ${asked.toLocaleString('en-US')})\n`,
        exitCode: 1,
      };
    },
  };
}
