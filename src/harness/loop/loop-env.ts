/**
 * What one run of the loop is wired to, made once before the first turn: the budgets, the
 * emitter, the hook environment and the sites (tool pool, context, agents), the tool site's
 * context, the watch that tells the tool site which files changed — and the state and events a
 * run starts with. The generator in `agent-loop.ts` then holds only the turn's flow.
 */
import { createAgentsSite } from '../agents/site.ts';
import { summaryBudgetOf, type CostLedger } from '../cost/index.ts';
import { AsyncHookInbox } from '../hooks/async-hooks.ts';
import { createAsyncHookSite } from './async-hook-site.ts';
import { TODO_TOOL_NAME, todosFromHistory } from '../agents/todos/index.ts';
import { readToolResultTool, storedResultsOf } from '../context/read-tool-result-tool.ts';
import { emptyContextState } from '../context/state.ts';
import { emptyUsage } from '../messages.ts';
import { SessionGrants } from '../permissions/session-grants.ts';
import type { PermissionContext } from '../permissions/types.ts';
import { FileState } from '../tools/file-state.ts';
import type { TraceEvent } from '../trace.ts';
import type { ContextState } from '../context/state.ts';
import { createContextSite } from './context-site.ts';
import { RunEmitter } from './emitter.ts';
import type { HookSiteEnv } from './hook-site.ts';
import type { RunToolsOptions } from './run-tools.ts';
import { createToolPoolSite } from './tool-pool.ts';
import { endHooks } from './end-hooks.ts';
import { planModeSite } from './plan-mode-site.ts';
import { DEFAULT_BUDGETS, type LoopDeps, type LoopInput, type LoopState } from './types.ts';

export type LoopEnv = ReturnType<typeof createLoopEnv>;

/** `spend`: the run's cost ledger when it has a dollar ceiling (summary requests must fit what is left). */
export function createLoopEnv(input: LoopInput, deps: LoopDeps, spend: CostLedger | null = null) {
  const budgets = { ...DEFAULT_BUDGETS, ...input.budgets };
  const signal = input.signal ?? new AbortController().signal;
  const cwd = input.cwd ?? deps.sandbox.workdir;
  const files = deps.files ?? new FileState();
  // The plan-mode site: exit_plan_mode in plan mode, and the run's own (switchable) permission context.
  const plan = planModeSite(input, input.permissions ?? { mode: 'default', rules: [], workdir: deps.sandbox.workdir });
  const permissions: PermissionContext = plan.permissions;
  const emit = new RunEmitter(deps.clock, deps.agentId ?? 'main', deps.parentToolUseId);
  // Background hooks: the session's inbox for the main agent (a hook that ends after a run reports at
  // the next prompt), a run's own for a subagent (it never takes the parent's).
  const asyncHooks = deps.hooks ? (deps.subagent ? undefined : deps.hooks.asyncHooks) ?? new AsyncHookInbox() : undefined;
  const hooks: HookSiteEnv = { ...(deps.hooks ? { hooks: deps.hooks } : {}), sandbox: deps.sandbox, clock: deps.clock, signal, cwd, ...(asyncHooks ? { asyncHooks } : {}) };
  // StopFailure and SessionEnd fire when the run ends, whichever way it ends (end-hooks.ts).
  emit.endHooks = (reason, messages, error) => endHooks(reason, messages, error, { hooks, input, isMain: !deps.subagent });

  // Originals of tool results the context layers replaced by references stay readable.
  const initialContext: ContextState = input.contextState ?? emptyContextState();
  // The pool: a bare deny removes a tool from the model's view (it cannot even try it); a live
  // pool (`input.toolPool`) is re-read before each request (tool-pool.ts).
  const toolPool = createToolPoolSite({
    initial: plan.tools,
    live: plan.toolPool,
    always: [readToolResultTool(storedResultsOf(() => context.latest()))],
    rules: permissions.rules,
    defer: input.deferTools,
  });
  const hasTodoTool = toolPool.view().visible.some((t) => t.name === TODO_TOOL_NAME);
  const budget = input.budget;
  const summaryBudget = spend && budget ? { summaryBudget: () => summaryBudgetOf(budget, spend.totalUsd()) } : {};
  const context = createContextSite({ input, deps, emit, hooks, tools: () => toolPool.view(), initial: initialContext, ...summaryBudget });
  // Skills, background jobs and steering: one site, see agents/site.ts.
  const agents = createAgentsSite({ sandbox: deps.sandbox, clock: deps.clock, signal, emit, ...(input.steering ? { steering: input.steering } : {}), ...(input.skills ? { skills: input.skills } : {}) });
  const sessionGrants = deps.sessionGrants ?? new SessionGrants();
  const backgroundHooks = createAsyncHookSite(asyncHooks, emit, signal);

  // The tool site reports which files each batch of calls changed.
  const changed = new Set<string>();
  const unwatch = deps.sandbox.fs.watch((e) => e.paths.forEach((p) => changed.add(p)));
  const takeChangedPaths = () => {
    const paths = [...changed].sort();
    changed.clear();
    return paths;
  };
  /** The tool site's options but the tools and the malformed calls (those change per turn). */
  const toolSite: Omit<RunToolsOptions, 'tools' | 'malformed'> = {
    context: { sandbox: deps.sandbox, cwd, signal, files, clock: deps.clock, ids: deps.ids, agentId: emit.agentId, background: agents.background, grants: sessionGrants },
    takeChangedPaths,
    permissions,
    ...(deps.prompt ? { prompt: deps.prompt } : {}),
    session: sessionGrants,
    hooks,
  };
  return { budgets, signal, clock: deps.clock, emit, hooks, initialContext, toolPool, hasTodoTool, context, agents, backgroundHooks, toolSite, unwatch, ...(input.fallbackModel ? { fallbackModel: input.fallbackModel } : {}) };
}

export function initialState(input: LoopInput, context: ContextState): LoopState {
  return {
    messages: [...input.messages],
    model: input.model,
    turn: 0,
    usage: emptyUsage(),
    outputRecoveries: 0,
    modelRetries: 0,
    emptyRetryUsed: false,
    stopHookBlocks: 0,
    context,
    lastRequest: null,
    reactiveCompactUsed: false,
    transition: null,
    // The plan survives follow-ups and resumes: it is read back from the history.
    todos: todosFromHistory(input.messages),
    turnsSinceTodoWrite: 0,
  };
}

/** `run.start`, then what the run was prepared with: tools the rules hide, settings and memory read, skills. */
export function* runStartEvents(input: LoopInput, deps: LoopDeps, env: LoopEnv): Generator<TraceEvent> {
  const { emit, toolPool } = env;
  yield emit.stamp({ type: 'run.start', model: input.model, modelClient: deps.model.name, sandbox: deps.sandbox.kind, tools: input.tools.map((t) => t.name), maxTurns: input.maxTurns });
  const { hidden, visible } = toolPool.view();
  if (hidden.length > 0) yield emit.stamp({ type: 'permission.prefilter', hidden, visible: visible.filter((t) => !toolPool.view().deferred.includes(t.name)).map((t) => t.name) });
  if (input.settingsRead) yield emit.stamp(input.settingsRead);
  if (input.memoryInjected) yield emit.stamp(input.memoryInjected);
  for (const e of input.preludeEvents ?? []) yield emit.stamp(e);
  yield* env.agents.start();
}
