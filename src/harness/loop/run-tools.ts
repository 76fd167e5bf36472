/**
 * Runs the tool calls of one turn. Consecutive concurrency-safe calls form a batch; every other
 * call is a batch of its own. For each batch, every call goes through the permission pipeline
 * (one at a time, so prompts never overlap), then the allowed calls run — together when the batch
 * has several. Events stream out as they happen; results go back in the order of the calls.
 */
import type { HookOutcome } from '../hooks/index.ts';
import type { ImageBlock, TextBlock, ToolResultBlock, ToolUseBlock } from '../messages.ts';
import { permissionPipeline, type PipelineEnv, type PromptAnswer, type PromptRequest } from '../permissions/pipeline.ts';
import { searchExclusions } from '../permissions/read-scope.ts';
import type { SessionGrants } from '../permissions/session-grants.ts';
import type { PermissionContext } from '../permissions/types.ts';
import { executeToolCall, validateToolCall, type ValidatedCall } from '../tools/run-tool.ts';
import type { AnyTool, ToolContext, ToolImage } from '../tools/tool.ts';
import type { TraceEvent, TraceEventBody } from '../trace.ts';
import { AsyncQueue } from '../util/async-queue.ts';
import { drainInto, fireHook, type HookSiteEnv } from './hook-site.ts';
import { configChanged } from './session-file-hooks.ts';
import { deniedWithoutPerson, permissionDeniedHook } from './permission-denied-site.ts';
import { INTERRUPTED_RESULT, malformedInputResult, NOT_RUN_INTERRUPTED } from './meta-messages.ts';
import type { MalformedToolUse } from './stream-accumulator.ts';
import { isInside } from '../util/paths.ts';
import { WORKSPACES_ROOT } from '../workspace/paths.ts';

export type Prompter = (request: PromptRequest) => Promise<PromptAnswer>;

export type RunToolsOptions = {
  tools: AnyTool[];
  /** The context shared by every call; `toolUseId` and `onOutput` are filled per call. */
  context: Omit<ToolContext, 'onOutput' | 'toolUseId'>;
  malformed: MalformedToolUse[];
  /** Paths the sandbox reported as changed since the last call; emptied by the call. */
  takeChangedPaths: () => string[];
  permissions: PermissionContext;
  /** Asks a person; absent in headless runs (what needs approval is then denied). */
  prompt?: Prompter;
  session?: SessionGrants;
  hooks: HookSiteEnv;
};

export type ToolRunOutcome = {
  /** One per call, in call order. */
  results: ToolResultBlock[];
  /** Text for the model after the results (hook context and feedback), in call order. */
  notes: TextBlock[];
  /** A hook asked to end the run after this step. */
  stopRun?: { reason: string };
};

type Planned = { index: number; block: ToolUseBlock; safe: boolean; malformed?: MalformedToolUse };

export async function* runTools(calls: ToolUseBlock[], opts: RunToolsOptions): AsyncGenerator<TraceEventBody | TraceEvent, ToolRunOutcome> {
  const results: ToolResultBlock[] = new Array(calls.length);
  const notes: TextBlock[][] = calls.map(() => []);
  let stopRun: { reason: string } | undefined;
  const noteHooks = (i: number, o: HookOutcome | null, label: string) => {
    if (!o) return;
    if (o.additionalContext) notes[i]!.push({ type: 'text', text: `${label} hook context:\n${o.additionalContext}` });
    if (o.block && o.reason) notes[i]!.push({ type: 'text', text: `${label} hook feedback:\n${o.reason}` });
    if (o.stopRun && !stopRun) stopRun = o.stopRun;
  };

  for (const block of calls) yield { type: 'tool.proposed', toolUseId: block.id, name: block.name, input: block.input };

  const malformedById = new Map(opts.malformed.map((m) => [m.id, m]));
  const planned: Planned[] = calls.map((block, index) => {
    const bad = malformedById.get(block.id);
    return { index, block, safe: !bad && isConcurrencySafe(opts.tools, block), ...(bad ? { malformed: bad } : {}) };
  });

  for (const batch of partition(planned)) {
    if (opts.context.signal.aborted) {
      for (const p of batch) {
        results[p.index] = errorResult(p.block.id, NOT_RUN_INTERRUPTED);
        yield toolResultEvent(p.block, NOT_RUN_INTERRUPTED, true, 0);
      }
      continue;
    }

    // Permission first, one call at a time.
    const allowed: { p: Planned; call: ValidatedCall }[] = [];
    for (const p of batch) {
      const side: TraceEventBody[] = [];
      const verdict = yield* checkCall(p, opts, side, (o) => noteHooks(p.index, o, 'PreToolUse'));
      if (verdict.ok) allowed.push({ p, call: verdict.call });
      else {
        results[p.index] = errorResult(p.block.id, verdict.message);
        yield toolResultEvent(p.block, verdict.message, true, 0);
      }
    }

    // Then run what was allowed: together when the batch has several.
    if (allowed.length > 0) {
      const queue = new AsyncQueue<TraceEventBody | TraceEvent>();
      let pending = allowed.length;
      const concurrent = allowed.length > 1;
      for (const { p, call } of allowed) {
        void runOne(p, call, concurrent, queue, opts).then(({ result, post }) => {
          results[p.index] = result;
          noteHooks(p.index, post, result.is_error ? 'PostToolUseFailure' : 'PostToolUse');
          if (--pending === 0) queue.close();
        });
      }
      for await (const event of queue) yield event;
    }
    // Isolated workspaces' private trees are bookkeeping; what an agent changed there is in `workspace.changes`.
    const changed = opts.takeChangedPaths().filter((path) => !isInside(WORKSPACES_ROOT, path));
    if (changed.length > 0) yield { type: 'sandbox.changed', paths: changed };
    yield* configChanged(changed, opts.context.sandbox.workdir, opts.hooks);
  }
  return { results, notes: notes.flat(), ...(stopRun ? { stopRun } : {}) };
}

type CallVerdict = { ok: true; call: ValidatedCall } | { ok: false; message: string };

/** Validation, the tool's own check, PreToolUse hooks, rules, mode and prompt, as trace events. */
async function* checkCall(
  p: Planned,
  opts: RunToolsOptions,
  side: TraceEventBody[],
  onPreToolUse: (o: HookOutcome | null) => void,
): AsyncGenerator<TraceEventBody, CallVerdict> {
  const { block } = p;
  if (p.malformed) {
    const message = malformedInputResult(p.malformed.name, p.malformed.raw, p.malformed.error);
    yield { type: 'tool.validated', toolUseId: block.id, name: block.name, ok: false, error: message };
    return { ok: false, message };
  }
  const ctx: ToolContext = { ...opts.context, toolUseId: block.id, onOutput: () => {} };
  const hooksConfigured = (opts.hooks.hooks?.config.PreToolUse?.length ?? 0) > 0;
  const pipeline = permissionPipeline(
    { toolUseId: block.id, name: block.name, input: block.input },
    {
      permissions: opts.permissions,
      validate: (input) => validateToolCall(opts.tools, { id: block.id, name: block.name, input }, ctx),
      ...(hooksConfigured
        ? {
            preToolUseHooks: async (input: unknown) => {
              const o = await drainInto(
                fireHook({ event: 'PreToolUse', toolName: block.name, toolInput: input, toolUseId: block.id }, opts.hooks),
                (e) => side.push(e),
              );
              onPreToolUse(o);
              return {
                ...(o?.decision ? { decision: o.decision } : {}),
                ...(o?.reason ? { reason: o.reason } : {}),
                ...(o?.updatedInput ? { updatedInput: o.updatedInput } : {}),
                source: 'PreToolUse hooks',
              };
            },
          }
        : {}),
      ...((opts.hooks.hooks?.config.PermissionRequest?.length ?? 0) > 0 ? { permissionRequestHooks: permissionRequestHooks(block, opts.hooks, side) } : {}),
      ...(opts.prompt ? { prompt: promptWithHooks(opts.prompt, block, opts.hooks, side) } : {}),
      ...(opts.session ? { session: opts.session } : {}),
    },
  );
  let step = await pipeline.next();
  while (true) {
    while (side.length > 0) yield side.shift()!;
    if (step.done) break;
    yield step.value;
    if (step.value.type === 'permission.stage' && step.value.stage === 'validate') {
      const ok = step.value.decision !== 'deny';
      yield { type: 'tool.validated', toolUseId: block.id, name: block.name, ok, ...(ok ? {} : { error: step.value.reason }) };
    }
    step = await pipeline.next();
  }
  const r = step.value;
  if (r.decision === 'allow') return { ok: true, call: r.call };
  if (!deniedWithoutPerson(r, !!opts.prompt)) return { ok: false, message: r.message };
  const message = await permissionDeniedHook(block, r.message, opts.hooks, side);
  while (side.length > 0) yield side.shift()!;
  return { ok: false, message };
}

/**
 * When a call would need a person, the PermissionRequest hooks may answer in their place
 * (allow / deny) — in headless runs too, where there is no person; anything else goes on.
 */
function permissionRequestHooks(block: ToolUseBlock, hooks: HookSiteEnv, side: TraceEventBody[]): NonNullable<PipelineEnv['permissionRequestHooks']> {
  return async (request) => {
    const o = await drainInto(
      fireHook({ event: 'PermissionRequest', toolName: block.name, toolInput: request.input, toolUseId: block.id }, hooks),
      (e) => side.push(e),
    );
    if (o?.decision === 'allow') {
      return { decision: 'allow', source: 'PermissionRequest hooks', ...(o.reason ? { message: o.reason } : {}), ...(o.updatedInput ? { updatedInput: o.updatedInput } : {}) };
    }
    if (o?.decision === 'deny' || o?.block) return { decision: 'deny', message: o.reason ?? 'no reason given', source: 'PermissionRequest hooks' };
    return null;
  };
}

/** Before a person is asked, the Notification hooks hear about it. */
function promptWithHooks(prompt: Prompter, block: ToolUseBlock, hooks: HookSiteEnv, side: TraceEventBody[]): Prompter {
  return async (request) => {
    await drainInto(
      fireHook({ event: 'Notification', message: `The agent needs your permission to use ${block.name}`, notificationType: 'permission_prompt' }, hooks),
      (e) => side.push(e),
    );
    return prompt(request);
  };
}

function isConcurrencySafe(tools: AnyTool[], block: ToolUseBlock): boolean {
  const tool = tools.find((t) => t.name === block.name);
  if (!tool) return false;
  const parsed = tool.inputSchema.safeParse(block.input);
  if (!parsed.success) return false;
  try {
    return tool.isConcurrencySafe(parsed.data);
  } catch {
    return false;
  }
}

/** Groups consecutive concurrency-safe calls; everything else stands alone. */
function partition(planned: Planned[]): Planned[][] {
  const batches: Planned[][] = [];
  let run: Planned[] = [];
  for (const p of planned) {
    if (p.safe) {
      run.push(p);
      continue;
    }
    if (run.length > 0) batches.push(run);
    run = [];
    batches.push([p]);
  }
  if (run.length > 0) batches.push(run);
  return batches;
}

async function runOne(
  p: Planned,
  call: ValidatedCall,
  concurrent: boolean,
  queue: AsyncQueue<TraceEventBody | TraceEvent>,
  opts: RunToolsOptions,
): Promise<{ result: ToolResultBlock; post: HookOutcome | null }> {
  const { block } = p;
  const started = opts.context.clock.now();
  queue.push({ type: 'tool.started', toolUseId: block.id, name: block.name, concurrent, input: call.input });
  const exclude = searchExclusions(opts.permissions.rules, opts.permissions.workdir);
  const ctx: ToolContext = {
    ...opts.context,
    toolUseId: block.id,
    onOutput: (chunk) => queue.push({ type: 'tool.output', toolUseId: block.id, chunk }),
    report: (event) => queue.push(event),
    hook: (payload) => drainInto(fireHook(payload, opts.hooks), (e) => queue.push(e)),
    ...(exclude ? { excludeFromSearch: exclude } : {}),
    // A nested agent's events (and a tool's own, e.g. `subagent.start`) join this stream in order.
    emit: (event) => queue.pushAndWait(event, opts.context.signal),
  };
  const outcome = await executeToolCall(call, ctx);
  let content = outcome.content;
  let isError = outcome.isError === true;
  if (opts.context.signal.aborted) {
    content = `${INTERRUPTED_RESULT}${content ? `\n${content}` : ''}`;
    isError = true;
  }
  const images = opts.context.signal.aborted ? [] : (outcome.images ?? []);
  queue.push(toolResultEvent(block, content, isError, opts.context.clock.now() - started, images));
  // Images go after the text, as image blocks of the same tool_result (the Messages API allows both).
  const body: ToolResultBlock['content'] = images.length ? [{ type: 'text', text: content }, ...images.map(imageBlock)] : content;
  const result: ToolResultBlock = isError ? errorResult(block.id, body) : { type: 'tool_result', tool_use_id: block.id, content: body };
  if (opts.context.signal.aborted) return { result, post: null };
  const post = await drainInto(
    fireHook(
      isError
        ? { event: 'PostToolUseFailure', toolName: block.name, toolInput: call.input, toolUseId: block.id, error: content }
        : { event: 'PostToolUse', toolName: block.name, toolInput: call.input, toolUseId: block.id, toolResponse: content },
      opts.hooks,
    ),
    (e) => queue.push(e),
  );
  return { result, post };
}

function toolResultEvent(block: ToolUseBlock, content: string, isError: boolean, ms: number, images: readonly ToolImage[] = []): TraceEventBody {
  return { type: 'tool.result', toolUseId: block.id, name: block.name, content, isError, ms, ...(images.length ? { images: [...images] } : {}) };
}

const imageBlock = (i: ToolImage): ImageBlock => ({ type: 'image', source: { type: 'base64', media_type: i.mediaType, data: i.data } });

function errorResult(toolUseId: string, content: ToolResultBlock['content']): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUseId, content, is_error: true };
}
