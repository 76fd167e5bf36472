/**
 * A teammate's wake-ups: `wake` starts one `agentLoop` over its history plus what woke it (mail,
 * or a task it claimed), `stepOne` forwards one event of it into the lead's stream, and `finish`
 * decides the state it ends in (idle, waiting for an answer, done, shut down).
 */
import { agentLoop } from '../../loop/agent-loop.ts';
import { withUserContent } from '../../loop/history.ts';
import type { LoopDeps, LoopInput, RunResult } from '../../loop/types.ts';
import { FileState } from '../../tools/file-state.ts';
import { childDeferral, childHooks } from '../subagents/run-child.ts';
import { teammateIdleHook } from './idle-hook.ts';
import { changesAgainst } from './tab-files.ts';
import type { Team } from './team.ts';
import { DEFAULT_TEAMMATE_MAX_TURNS, type Sink, type Teammate } from './team-types.ts';
import { openWorkspace } from './workspace-offers.ts';

/** What a teammate reads when it claimed `task`. */
export function claimText(task: { id: string; subject: string; description?: string }): string {
  const desc = task.description ? `\n${task.description}` : '';
  return `You claimed task #${task.id}: ${task.subject}${desc}\nDo it, then mark it completed with task_update.`;
}

export async function wake(team: Team, m: Teammate, text: string, why: string, sink: Sink): Promise<void> {
  const runtime = team.runtime;
  if (m.isolation === 'overlay' && !m.workspace) {
    // Woken after it finished (done → working): a fresh copy of the tree as it is now, and a
    // fresh read state (what it read in the old copy may have changed since).
    m.workspace = await openWorkspace(team, m.name, m.agentId, sink);
    m.sandbox = m.workspace.sandbox;
    m.files = new FileState();
  }
  const input: LoopInput = {
    messages: withUserContent(m.history, [{ type: 'text', text }]),
    system: m.system,
    tools: m.tools,
    model: runtime.modelId,
    maxTokens: runtime.maxTokens,
    maxTurns: runtime.maxTurns ?? DEFAULT_TEAMMATE_MAX_TURNS,
    cwd: m.sandbox.workdir,
    signal: wakeSignal(m),
    permissions: runtime.permissions,
    ...(runtime.context ? { context: runtime.context } : {}),
    ...childDeferral(m.tools, runtime, m.history),
  };
  const hooks = childHooks(runtime.hooks);
  const prompt = runtime.prompt;
  const deps: LoopDeps = {
    model: m.model,
    sandbox: m.sandbox,
    clock: runtime.clock,
    ids: runtime.ids,
    agentId: m.agentId,
    files: m.files,
    ...(hooks ? { hooks } : {}),
    ...(prompt ? { prompt: (r) => prompt({ ...r, agent: { id: m.agentId, label: `teammate ${m.name}` } }) } : {}),
    ...(runtime.sessionGrants ? { sessionGrants: runtime.sessionGrants } : {}),
    ...(runtime.summarize ? { summarize: runtime.summarize } : {}),
    ...(runtime.collapseSummarize ? { collapseSummarize: runtime.collapseSummarize } : {}),
  };
  m.loop = agentLoop(input, deps);
  await team.move(m, 'working', why, sink);
}

function wakeSignal(m: Teammate): AbortSignal {
  const run = new AbortController();
  if (m.abort.signal.aborted) run.abort();
  const onAbort = () => run.abort();
  m.abort.signal.addEventListener('abort', onAbort, { once: true });
  m.unhook = () => m.abort.signal.removeEventListener('abort', onAbort);
  return run.signal;
}

async function finish(team: Team, m: Teammate, result: RunResult, sink: Sink): Promise<void> {
  delete m.loop;
  m.unhook?.();
  delete m.unhook;
  m.history = result.messages;
  // Joined from another tab: what it changed so far goes to the lead's tab before its new state does.
  if (m.tabBase && team.link.wire) team.link.post({ kind: 'offer', name: m.name, files: await changesAgainst(m.sandbox.fs, m.sandbox.workdir, m.tabBase) });
  // Going away: markGone moves it to `gone` itself.
  if (m.leaving) return;
  if (m.stopping || result.reason === 'aborted') return team.move(m, 'shut_down', m.stopping ? 'it approved the shutdown request' : 'the team was stopped', sink);
  if (result.reason !== 'completed') return team.move(m, 'done', `its loop ended: ${result.reason}`, sink);
  const waitingFor = [...team.requests.values()].find((r) => r.from === m.name);
  if (waitingFor) return team.move(m, 'waiting', `waiting for the answer to ${waitingFor.id} (${waitingFor.type})`, sink);
  const idle = await teammateIdleHook(m, 'team', { hooks: team.runtime.hooks, sandbox: team.runtime.sandbox, clock: team.runtime.clock });
  for (const e of idle.events) await sink(team.stampFor(m.agentId, e));
  if (idle.keepWorking) return wake(team, m, idle.keepWorking, 'a TeammateIdle hook kept it working', sink);
  return team.move(m, 'idle', 'its turn ended', sink);
}

/** One event of a working teammate, forwarded; true when it had none (its loop just ended: a turn boundary). */
export async function stepOne(team: Team, m: Teammate, sink: Sink): Promise<boolean> {
  const loop = m.loop!;
  const step = await loop.next();
  if (step.done) {
    // The pump and a stop can both be waiting on this loop: only the first to see it end finishes it
    // (`finish` forgets the loop at once; a later `next()` of an ended generator has no result).
    if (m.loop !== loop) return true;
    await finish(team, m, step.value, sink);
    return true;
  }
  const e = step.value;
  if (e.agentId === m.agentId && e.type === 'tool.started') m.toolUses++;
  // Its task tools wrote this tab's board: the other tabs write the same tasks to theirs.
  if (team.link.wire && e.agentId === m.agentId && (e.type === 'task.updated' || e.type === 'task.created')) {
    team.link.post({ kind: 'tasks', name: m.name, tasks: [e.task], changes: e.type === 'task.updated' ? e.changes : ['created'] });
  }
  await sink(e.agentId === m.agentId ? { ...e, seq: ++m.seq } : e);
  return false;
}
