/**
 * Shared set-up for the tools tests: a real just-bash sandbox, a fresh FileState, FakeClock and
 * SequentialIds, and `run(name, input)` going through `runToolCall` as the loop does.
 */
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { WORKDIR, type Sandbox } from '../../src/harness/ports.ts';
import { FakeClock, SequentialIds } from '../../src/harness/clock.ts';
import type { ToolOutputChunk } from '../../src/harness/trace.ts';
import { FileState } from '../../src/harness/tools/file-state.ts';
import type { ToolContext } from '../../src/harness/tools/tool.ts';
import { builtinTools, findTool, runToolCall, type ToolCallRun } from '../../src/harness/tools/index.ts';

export type ToolsFixture = {
  sandbox: Sandbox;
  ctx: ToolContext;
  outputs: ToolOutputChunk[];
  run(name: string, input: unknown, over?: Partial<ToolContext>): Promise<ToolCallRun>;
  /** Like `run`, but returns the text and fails the test on an error result. */
  ok(name: string, input: unknown): Promise<string>;
  /** Like `run`, but returns the text and fails the test unless it is an error result. */
  err(name: string, input: unknown, over?: Partial<ToolContext>): Promise<string>;
  file(path: string): Promise<string>;
};

export async function toolsFixture(files: Record<string, string> = {}): Promise<ToolsFixture> {
  const sandbox = await createJustBashSandbox({ files });
  const outputs: ToolOutputChunk[] = [];
  const ids = new SequentialIds();
  const ctx: ToolContext = {
    sandbox,
    cwd: WORKDIR,
    signal: new AbortController().signal,
    onOutput: (c) => outputs.push(c),
    files: new FileState(),
    clock: new FakeClock(),
    ids,
    agentId: 'main',
  };
  const tools = builtinTools();
  const run = (name: string, input: unknown, over: Partial<ToolContext> = {}) =>
    runToolCall(findTool(tools, name), { id: ids.next('toolu'), name, input }, { ...ctx, ...over }, tools);
  return {
    sandbox,
    ctx,
    outputs,
    run,
    async ok(name, input) {
      const r = await run(name, input);
      if (r.outcome.isError) throw new Error(`expected ${name} to succeed, got: ${r.outcome.content}`);
      return r.outcome.content;
    },
    async err(name, input, over) {
      const r = await run(name, input, over);
      if (!r.outcome.isError) throw new Error(`expected ${name} to fail, got: ${r.outcome.content}`);
      return r.outcome.content;
    },
    file: (path) => sandbox.fs.readFile(path.startsWith('/') ? path : `${WORKDIR}/${path}`),
  };
}
