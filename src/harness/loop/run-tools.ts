/**
 * Runs the tool calls of one turn. Consecutive concurrency-safe calls run together; every other
 * call runs alone, in order. Events stream out as they happen (interleaved for concurrent calls);
 * results go back in the order the model made the calls.
 */
import type { ToolResultBlock, ToolUseBlock } from '../messages.ts';
import type { ToolContext, AnyTool } from '../tools/tool.ts';
import { validateToolCall, executeToolCall, type ValidatedCall } from '../tools/run-tool.ts';
import type { TraceEventBody } from '../trace.ts';
import { AsyncQueue } from './async-queue.ts';
import { malformedInputResult, NOT_RUN_INTERRUPTED, INTERRUPTED_RESULT } from './meta-messages.ts';
import type { MalformedToolUse } from './stream-accumulator.ts';

export type RunToolsOptions = {
  tools: AnyTool[];
  /** The context shared by every call; `toolUseId` and `onOutput` are filled per call. */
  context: Omit<ToolContext, 'onOutput' | 'toolUseId'>;
  malformed: MalformedToolUse[];
  /** Paths the sandbox reported as changed since the last call; emptied by the call. */
  takeChangedPaths: () => string[];
};

type Planned = { index: number; block: ToolUseBlock; check: ValidatedCall | { ok: false; message: string } };

export async function* runTools(
  calls: ToolUseBlock[],
  opts: RunToolsOptions,
): AsyncGenerator<TraceEventBody, ToolResultBlock[]> {
  const { tools, context, malformed } = opts;
  const results: ToolResultBlock[] = new Array(calls.length);
  const malformedById = new Map(malformed.map((m) => [m.id, m]));

  for (const block of calls) yield { type: 'tool.proposed', toolUseId: block.id, name: block.name, input: block.input };

  // Validation first, so concurrency can be judged on parsed input.
  const planned: Planned[] = [];
  for (const [index, block] of calls.entries()) {
    const bad = malformedById.get(block.id);
    const check = bad
      ? { ok: false as const, message: malformedInputResult(bad.name, bad.raw, bad.error) }
      : await validateToolCall(tools, block, { ...context, onOutput: () => {}, toolUseId: block.id });
    yield {
      type: 'tool.validated',
      toolUseId: block.id,
      name: block.name,
      ok: check.ok,
      ...(check.ok ? {} : { error: check.message }),
    };
    planned.push({ index, block, check });
  }

  for (const batch of partition(planned)) {
    if (context.signal.aborted) {
      for (const p of batch) {
        results[p.index] = errorResult(p.block.id, NOT_RUN_INTERRUPTED);
        yield { type: 'tool.result', toolUseId: p.block.id, name: p.block.name, content: NOT_RUN_INTERRUPTED, isError: true, ms: 0 };
      }
      continue;
    }
    const queue = new AsyncQueue<TraceEventBody>();
    let pending = batch.length;
    const concurrent = batch.length > 1;
    for (const p of batch) {
      void runOne(p, concurrent, queue, opts).then((result) => {
        results[p.index] = result;
        if (--pending === 0) queue.close();
      });
    }
    for await (const event of queue) yield event;
    const changed = opts.takeChangedPaths();
    if (changed.length > 0) yield { type: 'sandbox.changed', paths: changed };
  }
  return results;
}

/** Groups consecutive concurrency-safe calls; everything else stands alone. */
function partition(planned: Planned[]): Planned[][] {
  const batches: Planned[][] = [];
  let run: Planned[] = [];
  for (const p of planned) {
    const safe = p.check.ok && p.check.tool.isConcurrencySafe(p.check.input);
    if (safe) {
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
  concurrent: boolean,
  queue: AsyncQueue<TraceEventBody>,
  opts: RunToolsOptions,
): Promise<ToolResultBlock> {
  const { block, check } = p;
  const started = opts.context.clock.now();
  const finish = (content: string, isError: boolean): ToolResultBlock => {
    queue.push({
      type: 'tool.result',
      toolUseId: block.id,
      name: block.name,
      content,
      isError,
      ms: opts.context.clock.now() - started,
    });
    return isError ? errorResult(block.id, content) : { type: 'tool_result', tool_use_id: block.id, content };
  };
  if (!check.ok) return finish(check.message, true);
  queue.push({ type: 'tool.started', toolUseId: block.id, name: block.name, concurrent });
  const ctx: ToolContext = {
    ...opts.context,
    toolUseId: block.id,
    onOutput: (chunk) => queue.push({ type: 'tool.output', toolUseId: block.id, chunk }),
  };
  const outcome = await executeToolCall(check, ctx);
  if (opts.context.signal.aborted) {
    const detail = outcome.content ? `\n${outcome.content}` : '';
    return finish(`${INTERRUPTED_RESULT}${detail}`, true);
  }
  return finish(outcome.content, outcome.isError === true);
}

function errorResult(toolUseId: string, content: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: toolUseId, content, is_error: true };
}
