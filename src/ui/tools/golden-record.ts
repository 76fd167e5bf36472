/**
 * Keeping a call of the current session as a golden case: the files before it come from the
 * session's snapshots (`ctl.filesAt`, the state as of the event before the call); without them,
 * from the live sandbox, and the case says so in its label.
 */
import { recordGoldenCase, type GoldenCase, type RecordResult } from '../../harness/golden/index.ts';
import { redactDeep, snapshotSandbox } from '../../harness/session/light.ts';
import type { TraceEvent } from '../../harness/trace.ts';
import type { FilesAt } from '../state/run-controller.svelte.ts';
import type { Sandbox } from '../../harness/ports.ts';

export async function keepCall(o: {
  events: readonly TraceEvent[];
  toolUseId: string;
  existing: readonly GoldenCase[];
  filesAt: ((count: number) => Promise<FilesAt>) | null;
  sandbox: Sandbox | null;
  /** Redacted from the case (the API key in use): a kept case travels in the scenario, its links and exports. */
  secrets?: readonly string[];
}): Promise<RecordResult> {
  const at = o.events.findIndex((e) => e.type === 'tool.proposed' && e.toolUseId === o.toolUseId);
  if (at === -1) return { ok: false, error: 'that call is not in this session' };
  let files: Record<string, string> | null = null;
  let note = '';
  if (o.filesAt) {
    const found = await o.filesAt(at);
    if ('snapshot' in found) files = found.snapshot.files;
  }
  if (files === null && o.sandbox) {
    files = (await snapshotSandbox(o.sandbox.fs, o.sandbox.workdir)).files;
    note = ' (files as they are now: no snapshot before the call)';
  }
  if (files === null) return { ok: false, error: 'the sandbox files are not available: step once so the sandbox starts' };
  const r = recordGoldenCase({ events: o.events, toolUseId: o.toolUseId, files, existing: o.existing });
  if (!r.ok) return r;
  const kept = redactDeep(r.case, o.secrets ?? []);
  return { ok: true, case: note ? { ...kept, label: `${kept.label}${note}` } : kept };
}
