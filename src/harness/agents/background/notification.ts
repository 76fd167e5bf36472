/**
 * The text a finished background job puts in front of the model, in the shape Claude Code uses
 * (`<bash-notification>` with the shell id, status and a one-line summary), plus the end of its
 * output so the model can often react without another `bash_output` call.
 */
import type { BackgroundJob } from './jobs.ts';

/** Characters of a job's output tail included in its notification. */
export const NOTIFICATION_TAIL_CHARS = 2_000;

export function jobSummary(job: BackgroundJob): string {
  const what = job.description ?? job.command;
  switch (job.status) {
    case 'running':
      return `Background command "${what}" is still running`;
    case 'completed':
      return `Background command "${what}" completed (exit code 0)`;
    case 'killed':
      return `Background command "${what}" was killed`;
    case 'failed':
      return job.timedOut
        ? `Background command "${what}" timed out and was stopped (exit code ${job.exitCode})`
        : `Background command "${what}" failed with exit code ${job.exitCode}`;
  }
}

export function notificationText(job: BackgroundJob): string {
  const out = [job.stdout.replace(/\n$/, ''), job.stderr ? `[stderr]\n${job.stderr.replace(/\n$/, '')}` : ''].filter(Boolean).join('\n');
  const tail = out.length > NOTIFICATION_TAIL_CHARS ? `…${out.slice(out.length - NOTIFICATION_TAIL_CHARS)}` : out;
  return [
    '<bash-notification>',
    `<shell-id>${job.id}</shell-id>`,
    `<status>${job.status}</status>`,
    `<summary>${jobSummary(job)}</summary>`,
    tail ? `<output-tail>\n${tail}\n</output-tail>` : '',
    `Read the whole output with bash_output (bash_id: "${job.id}").`,
    '</bash-notification>',
  ]
    .filter(Boolean)
    .join('\n');
}
