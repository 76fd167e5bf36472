/**
 * `bash_output` and `kill_shell`, as Claude Code names them (BashOutput / KillShell): read what a
 * background job printed since the last read, and stop one. Both work on `ctx.background`, the
 * run's job registry; without one (a loop that has none) they say so instead of failing obscurely.
 */
import { z } from 'zod';
import { truncateHeadTail } from '../../util/truncate.ts';
import { fail } from '../../tools/shared.ts';
import { buildTool, type ToolContext } from '../../tools/tool.ts';
import { jobSummary } from './notification.ts';
import type { BackgroundJobs } from './jobs.ts';

const OUTPUT_CAP = 30_000;

const NO_REGISTRY = 'Background jobs are not available in this run: start the command with bash (without run_in_background) instead.';

function registryOf(ctx: ToolContext): BackgroundJobs | undefined {
  return ctx.background;
}

function unknownJob(jobs: BackgroundJobs, id: string): string {
  const ids = jobs.list().map((j) => j.id);
  return `No background job "${id}". ${ids.length > 0 ? `Jobs of this run: ${ids.join(', ')}.` : 'None has been started in this run: start one with bash and run_in_background: true.'}`;
}

const outputSchema = z.strictObject({
  bash_id: z.string().min(1).describe('The id bash returned when it started the job, e.g. "bash_1".'),
  filter: z.string().optional().describe('Optional regular expression: only output lines that match it are returned.'),
});

export function bashOutputTool() {
  return buildTool<z.infer<typeof outputSchema>>({
    name: 'bash_output',
    description: `Reads the output of a background command started with bash and run_in_background: true.

- Returns only the output printed since the last bash_output call for that job, with the job's status (running, completed, failed, killed) and exit code once it has one.
- Use filter (a regular expression) to keep only matching lines; the lines left out are consumed too.
- You do not need to poll: when a background job finishes, a notification arrives before your next turn.`,
    inputSchema: outputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async validateInput(input) {
      if (input.filter === undefined) return { ok: true };
      try {
        new RegExp(input.filter);
        return { ok: true };
      } catch (e) {
        return { ok: false, message: `filter is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}` };
      }
    },
    async call(input, ctx) {
      const jobs = registryOf(ctx);
      if (!jobs) return fail(NO_REGISTRY);
      const r = jobs.readNew(input.bash_id, input.filter !== undefined ? new RegExp(input.filter) : undefined);
      if (!r) return fail(unknownJob(jobs, input.bash_id));
      const { job } = r;
      const lines = [`<status>${job.status}</status>`];
      if (job.exitCode !== undefined) lines.push(`<exit_code>${job.exitCode}</exit_code>`);
      lines.push(`<summary>${jobSummary(job)}</summary>`);
      const out = (s: string) => truncateHeadTail(s.replace(/\n$/, ''), OUTPUT_CAP).text;
      lines.push(r.stdout ? `<stdout>\n${out(r.stdout)}\n</stdout>` : '<stdout>(no new output)</stdout>');
      if (r.stderr) lines.push(`<stderr>\n${out(r.stderr)}\n</stderr>`);
      return { content: lines.join('\n') };
    },
  });
}

const killSchema = z.strictObject({
  shell_id: z.string().min(1).describe('The id of the background job to stop, e.g. "bash_1".'),
});

export function killShellTool() {
  return buildTool<z.infer<typeof killSchema>>({
    name: 'kill_shell',
    description: 'Stops a background command started with bash and run_in_background: true. Use it for a job that is stuck or no longer needed; its output so far stays readable with bash_output.',
    inputSchema: killSchema,
    // It only stops a job this run itself started: like Claude Code's KillShell it needs no approval.
    isReadOnly: () => true,
    async call(input, ctx) {
      const jobs = registryOf(ctx);
      if (!jobs) return fail(NO_REGISTRY);
      const r = jobs.kill(input.shell_id);
      if (r === 'unknown') return fail(unknownJob(jobs, input.shell_id));
      if (r === 'not_running') return fail(`Background job ${input.shell_id} is not running any more (${jobSummary(jobs.get(input.shell_id)!)}); nothing to stop.`);
      return { content: `Stopped background job ${input.shell_id} (${jobs.get(input.shell_id)!.command}).` };
    },
  });
}
