/**
 * Reading a session's workbench record back (`workbench-record.ts` writes it): checked like any
 * stored input, with the record's and the scenario's schemas (zod), so it loads with the page's
 * document layer (`state/documents.ts`), not with the first screen.
 */
import { z } from 'zod';
import type { SessionLogEvent } from '../../harness/session/index.ts';
import { issuesText } from '../../harness/session/index.ts';
import { parseScenario } from '../../scenarios/schema.ts';
import type { LatestWorkbench } from './workbench-record.ts';

const recordSchema = z.object({ version: z.literal(1), origin: z.enum(['builtin', 'link', 'import']), scenario: z.unknown() });

/** The newest workbench record of `log` at or before log seq `atSeq` (default: the end), checked. */
export function latestWorkbench(log: readonly SessionLogEvent[], atSeq = log.length): LatestWorkbench {
  for (let i = Math.min(atSeq, log.length) - 1; i >= 0; i--) {
    const e = log[i]!;
    if (e.type !== 'session.workbench') continue;
    const seq = i + 1;
    const r = recordSchema.safeParse(e.workbench);
    if (!r.success) return { kind: 'damaged', seq, problem: issuesText(r.error.issues), raw: e };
    const scenario = parseScenario(r.data.scenario);
    if (!scenario.ok) return { kind: 'damaged', seq, problem: `scenario: ${scenario.errors.slice(0, 3).join('; ')}`, raw: e };
    return { kind: 'ok', workbench: { scenario: scenario.scenario, origin: r.data.origin }, seq };
  }
  return { kind: 'none' };
}
