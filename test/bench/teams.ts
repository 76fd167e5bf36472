/**
 * Teams bench (`npx tsx test/bench/teams.ts`): N = 2, 4, 8 auto-claiming teammates drain a
 * 40-task graph (10 roots, then each task waits for the one 10 before it: 4 levels). Each teammate
 * answers a claim with `task_update` (completed), then a `send_message` to the lead, then stops;
 * the lead waits in `read_inbox` until nothing can move. Models answer at once (scripted, chosen
 * from the last message), so the time is the harness's: scheduler, locks, files, events.
 * Printed per N: wall time, events, messages per task, lock waits, claims. Ratios; nothing asserted.
 */
import { agentLoop, builtinTools, realClock, SequentialIds, WORKDIR, type Message, type ModelClient, type TraceEvent } from '../../src/harness/index.ts';
import { taskTools } from '../../src/harness/agents/tasks/tools.ts';
import { writeTask } from '../../src/harness/agents/tasks/store.ts';
import { teamTools } from '../../src/harness/agents/teams/index.ts';
import { createScriptedClient } from '../../src/model/scripted/client.ts';
import type { ScriptedTurn } from '../../src/model/scripted/script.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const TASKS = 40;
const WIDTH = 10;

const lastText = (messages: readonly Message[]): string => {
  const m = messages.at(-1);
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return m.content.map((b) => (b.type === 'text' ? b.text : b.type === 'tool_result' ? `tool_result:${typeof b.content === 'string' ? b.content : ''}` : '')).join('\n');
};

/** A model that picks its one next turn from the conversation so far (a scripted client per call). */
function reactive(name: string, decide: (messages: readonly Message[]) => ScriptedTurn): ModelClient {
  let n = 0;
  return {
    name: `bench:${name}`,
    async *stream(request, signal) {
      yield* createScriptedClient([decide(request.messages)], { toolIds: () => `toolu_${name}_${++n}` }).stream(request, signal);
    },
  };
}

const say = (text: string): ScriptedTurn => ({ content: [{ type: 'text', text }] });
const use = (name: string, input: Record<string, unknown>): ScriptedTurn => ({ content: [{ type: 'tool_use', name, input }] });

function teammateTurn(messages: readonly Message[]): ScriptedTurn {
  const last = lastText(messages);
  const claimed = /You claimed task #(\d+)/.exec(last);
  if (claimed) return use('task_update', { taskId: claimed[1], status: 'completed' });
  const done = /Updated task #(\d+)/.exec(last);
  if (done) return use('send_message', { to: 'lead', body: `#${done[1]} done` });
  return say('ok');
}

async function once(n: number) {
  const sandbox = await createJustBashSandbox({ files: {} });
  for (let i = 1; i <= TASKS; i++) {
    await writeTask(sandbox.fs, sandbox.workdir, { id: String(i), subject: `task ${i}`, description: '', status: 'pending', blockedBy: i > WIDTH ? [String(i - WIDTH)] : [], createdAt: 0, updatedAt: 0 });
  }
  const permissions = { mode: 'bypassPermissions' as const, rules: [], workdir: WORKDIR };
  const ids = new SequentialIds();
  const { team, tools } = teamTools({
    sandbox,
    clock: realClock,
    ids,
    tools: () => [...builtinTools(), ...taskTools()],
    modelFor: (c) => reactive(c.description, teammateTurn),
    modelId: 'bench',
    maxTokens: 1024,
    permissions,
    maxTurns: 10,
  });
  const names = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  let spawned = false;
  const lead = reactive('lead', (messages) => {
    if (!spawned) {
      spawned = true;
      return { content: names.map((name) => ({ type: 'tool_use' as const, name: 'spawn_teammate', input: { name, prompt: 'Claim tasks.', auto_claim: true } })) };
    }
    return lastText(messages).includes('No teammate can do anything more') ? say('board drained') : use('read_inbox', {});
  });
  const started = performance.now();
  const loop = agentLoop(
    { messages: [{ role: 'user', content: 'Drain the board.' }], system: 'bench lead', tools: [...builtinTools(), ...taskTools(), ...tools], model: 'bench', maxTokens: 1024, maxTurns: 500, permissions },
    { model: lead, sandbox, clock: realClock, ids },
  );
  let events = 0;
  let last: IteratorResult<TraceEvent, unknown>;
  for (last = await loop.next(); !last.done; last = await loop.next()) events++;
  const wall = performance.now() - started;
  const claims = team.stats.claims;
  return { wall, events, messages: team.stats.messages, lockWaits: team.stats.lockWaits, claims, reason: (last.value as { reason: string }).reason };
}

const rows: string[] = [];
let base = 0;
for (const n of [2, 4, 8]) {
  const r = await once(n);
  if (n === 2) base = r.wall;
  rows.push(
    `| ${n} | ${r.wall.toFixed(0)} ms | ${(r.wall / base).toFixed(2)}× | ${r.events} | ${(r.messages / TASKS).toFixed(2)} | ${r.lockWaits} | ${r.claims}/${TASKS} | ${r.reason} |`,
  );
}
console.log(`teams: ${TASKS}-task graph (${WIDTH} roots, 4 levels), auto-claiming teammates, instant scripted models`);
console.log('| teammates | wall | vs 2 | events | messages / task | lock waits | claims | lead exit |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) console.log(r);
