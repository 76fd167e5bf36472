/**
 * For authors: gives a scripted lesson's tool calls the results its own headless replay saw,
 * so that a later replay of it (the "now try", a changed rule or hook) can say where it diverged.
 * What the recorder does for a live run, done for authored turns: each call's result is taken
 * from the first request that carried it, exactly as the model was shown it.
 */
import type { TraceEvent } from '../harness/trace.ts';
import type { Message } from '../harness/messages.ts';
import { resultsById, toRecordedResult } from '../model/scripted/recorded-results.ts';
import type { ScriptedTurn } from '../model/scripted/script.ts';
import { scriptedToolIds } from '../model/scripted/to-events.ts';

/**
 * `turns` (the main agent's script, as written) with `result` filled on every tool call the run
 * answered. Ids are drawn as the scripted client draws them (`toolu_scripted_1`, … per streamed
 * turn), so the script must be the one the log was made with. Calls the run never answered keep
 * no result (nothing will be compared for them).
 */
export function withRecordedResults(turns: readonly ScriptedTurn[], log: readonly TraceEvent[]): ScriptedTurn[] {
  const seen: Message[] = log.flatMap((e) => (e.type === 'model.request' && e.agentId === 'main' ? e.request.messages : []));
  const results = resultsById(seen);
  const nextId = scriptedToolIds();
  return turns.map((turn) => {
    if (turn.fault?.kind === 'http') return turn;
    const content = (turn.content ?? []).map((b) => {
      if (b.type !== 'tool_use' && b.type !== 'tool_use_raw') return b;
      const r = results.get(b.id ?? nextId());
      return r ? { ...b, result: toRecordedResult(r.content, r.isError) } : b;
    });
    return { ...turn, content };
  });
}
