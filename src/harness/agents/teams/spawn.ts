/**
 * How a teammate comes to be: `spawnTeammate` checks the name, makes its model, tool pool and
 * (for `isolation: overlay`) its own copy of the tree, and sends it its prompt; a teammate that
 * will run in another tab only gets a waiting lane here (`spawnInTab`), and `remoteMember` is how
 * a tab mirrors a teammate whose loop runs elsewhere.
 */
import type { ModelClient } from '../../ports.ts';
import { FileState } from '../../tools/file-state.ts';
import { taskTools } from '../tasks/tools.ts';
import { LEAD } from './message.ts';
import type { Team } from './team.ts';
import type { Sink, SpawnRequest, Teammate } from './team-types.ts';
import { openWorkspace } from './workspace-offers.ts';
import type { TeammateWorkspace } from './workspace.ts';

export type SpawnResult = { ok: true; teammate: Teammate } | { ok: false; message: string };

const NAME = /^[a-z][a-z0-9-]{0,31}$/;

export function teammateSystem(name: string, members: string[]): string {
  return `You are ${name}, a teammate in a team led by ${LEAD}. Other members: ${members.filter((m) => m !== name).join(', ') || '(none yet)'}.
Messages reach you as user turns; answer with send_message (to: the sender). When you finish a claimed task, mark it completed with task_update. Protocol: answer a shutdown_request with a shutdown_response (approve true to stop after this turn); before risky changes send a plan_submission to ${LEAD} and wait for its plan_response. End your turn when you have nothing left to do.`;
}

export async function spawnTeammate(team: Team, req: SpawnRequest, sink: Sink, how: { welcomed?: boolean } = {}): Promise<SpawnResult> {
  const runtime = team.runtime;
  if (!NAME.test(req.name) || req.name === LEAD) return { ok: false, message: `"${req.name}" is not a teammate name: use lowercase letters, digits and dashes (not "${LEAD}").` };
  if (team.members.has(req.name)) return { ok: false, message: `A teammate named ${req.name} already exists (state: ${team.members.get(req.name)!.state}). Send it a message instead.` };
  if (req.inTab && team.link.wire && runtime.hostsLead !== false) return spawnInTab(team, req, sink);
  // No other tab can join (a headless run, no channel): it runs here, in its own copy as it would in a tab.
  const isolation = req.isolation ?? (req.inTab && runtime.workspace ? 'overlay' : 'shared');
  if (isolation === 'overlay' && !runtime.workspace) return { ok: false, message: 'Isolated workspaces (isolation: "overlay") are not available in this build; spawn the teammate with isolation "shared".' };
  const agentId = `teammate-${req.name}`;
  const model = runtime.modelFor({ agentId, description: req.name, subagentType: 'teammate' });
  if ('error' in model) return { ok: false, message: `The teammate ${req.name} could not start: ${model.error}` };
  let workspace: TeammateWorkspace | undefined;
  if (isolation === 'overlay') {
    try {
      workspace = await openWorkspace(team, req.name, agentId, sink);
    } catch (err) {
      return { ok: false, message: `The teammate ${req.name} could not start: its isolated workspace could not be made (${err instanceof Error ? err.message : String(err)}).` };
    }
  }
  const abort = new AbortController();
  runtime.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  const base = runtime.tools();
  const withTasks = base.some((t) => t.name === 'task_update') ? base : [...base, ...taskTools()];
  const names = [LEAD, ...team.members.keys(), req.name];
  const m: Teammate = {
    name: req.name,
    agentId,
    state: 'idle',
    history: [],
    system: req.system ?? teammateSystem(req.name, names),
    tools: [...withTasks, ...(runtime.teammateTools?.(team, req.name) ?? [])],
    model,
    sandbox: workspace?.sandbox ?? runtime.sandbox,
    files: new FileState(),
    autoClaim: req.autoClaim ?? false,
    isolation,
    ...(workspace ? { workspace } : {}),
    abort,
    stopping: false,
    seq: 0,
    toolUses: 0,
  };
  team.members.set(req.name, m);
  await sink({ type: 'teammate.spawned', name: req.name, teammateAgentId: agentId, prompt: req.prompt, model: runtime.modelId, tools: m.tools.map((t) => t.name), autoClaim: m.autoClaim, isolation });
  await sink(team.stampFor(agentId, { type: 'agent.state', name: req.name, from: 'new', to: 'idle', why: 'spawned' }));
  team.link.post({ kind: 'hello', name: req.name, state: 'idle' });
  // Welcomed from the lead's tab: its prompt is already in its mailbox.
  if (!how.welcomed) await team.send({ from: LEAD, to: req.name, type: 'message', body: req.prompt }, sink, 'main');
  return { ok: true, teammate: m };
}

/**
 * A teammate that will run in another tab: its lane waits (`remoteTab: ''`) until a tab joins
 * as it; then it gets an isolated copy here, which that tab's offers fill and which is merged
 * back when it finishes. Its prompt waits in its mailbox, sent with the welcome.
 */
async function spawnInTab(team: Team, req: SpawnRequest, sink: Sink): Promise<SpawnResult> {
  if (!team.runtime.workspace) return { ok: false, message: 'A teammate in another tab needs isolated workspaces (its changes come back as a copy to merge), which this build does not have.' };
  const m = remoteMember(team, req.name, '');
  m.autoClaim = req.autoClaim ?? false;
  m.isolation = 'overlay';
  // 0: no join timeout (it waits until the run ends).
  if (team.joinTimeoutMs > 0) m.joinDeadline = team.runtime.clock.now() + team.joinTimeoutMs;
  team.members.set(req.name, m);
  await sink({ type: 'teammate.spawned', name: req.name, teammateAgentId: m.agentId, prompt: req.prompt, model: team.runtime.modelId, tools: [], autoClaim: m.autoClaim, isolation: 'overlay', inTab: true });
  await sink(team.stampFor(m.agentId, { type: 'agent.state', name: req.name, from: 'new', to: 'idle', why: `waiting for a tab to join as ${req.name} (the Team tab has the link)` }));
  team.link.post({ kind: 'invite', name: req.name });
  await team.send({ from: LEAD, to: req.name, type: 'message', body: req.prompt }, sink, 'main');
  return { ok: true, teammate: m };
}

/** A teammate whose loop runs in another tab (`tab`; '' until one joins): this tab only mirrors it. */
export function remoteMember(team: Team, name: string, tab: string): Teammate {
  return {
    name,
    agentId: `teammate-${name}`,
    state: 'idle',
    history: [],
    system: '',
    tools: [],
    model: { name: 'remote', stream: async function* () {} } as unknown as ModelClient,
    sandbox: team.runtime.sandbox,
    files: new FileState(),
    autoClaim: false,
    isolation: 'shared',
    abort: new AbortController(),
    stopping: false,
    seq: 0,
    toolUses: 0,
    remoteTab: tab,
  };
}
