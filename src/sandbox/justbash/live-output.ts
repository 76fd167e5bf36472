/**
 * Output that runtime commands stream while they run (see runtimes/hooks.ts), reconciled with
 * what just-bash returns at the end: the streamed text went to `onOutput` already, so only the
 * rest of each stream (what other commands in the same script printed) is delivered after.
 */
import type { ExecOptions } from '../../harness/ports.ts';
import type { OutputSink } from '../runtimes/hooks.ts';

export type LiveOutput = {
  /** The sink to lend runtime commands, or undefined when the caller does not listen. */
  sink: OutputSink | undefined;
  /** Whether anything was streamed. */
  used(): boolean;
  /** `final` with the streamed text added when the final text lacks it (a stopped command). */
  keepStreamed(final: string, stream: 'stdout' | 'stderr'): string;
  /** Delivers what of the final streams was not streamed live. */
  deliverRest(final: { stdout: string; stderr: string }): void;
};

function without(text: string, streamed: string): string {
  if (!streamed) return text;
  const at = text.indexOf(streamed);
  // Piped or filtered output is not what was streamed: deliver the final text as well.
  return at < 0 ? text : text.slice(0, at) + text.slice(at + streamed.length);
}

export function liveOutput(o: ExecOptions): LiveOutput {
  const streamed = { stdout: '', stderr: '' };
  const onOutput = o.onOutput;
  return {
    sink: onOutput
      ? (chunk) => {
          streamed[chunk.stream] += chunk.text;
          onOutput(chunk);
        }
      : undefined,
    keepStreamed: (final, stream) => (final.includes(streamed[stream]) ? final : final + streamed[stream]),
    used: () => streamed.stdout !== '' || streamed.stderr !== '',
    deliverRest(final) {
      if (!onOutput) return;
      try {
        const out = without(final.stdout, streamed.stdout);
        const err = without(final.stderr, streamed.stderr);
        if (out) onOutput({ stream: 'stdout', text: out });
        if (err) onOutput({ stream: 'stderr', text: err });
      } catch {
        // The UI callback failing is not the command failing.
      }
    },
  };
}
