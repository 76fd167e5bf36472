/**
 * Runs a whole v1 document headless, every prompt in order, the way the app runs a lesson: one
 * sandbox, one id source and one model for the session, each prompt a follow-up of the last
 * run (same history, context state and memory text). The log is what the session would store,
 * so lesson positions (log seqs) can be checked against it.
 */
import type { RunResult } from '../harness/index.ts';
import type { Clock, IdGen, MemoryStore, ModelClient, Sandbox, UserToolRunner } from '../harness/ports.ts';
import type { TraceEvent } from '../harness/trace.ts';
import { FileState } from '../harness/tools/index.ts';
import { InMemoryMemoryStore } from '../storage/memory/memory-store.ts';
import { toRunnableScenario } from '../scenarios/migrate.ts';
import { prepareRun, runPrepared } from './prepare.ts';
import { justBashShellParser } from '../sandbox/justbash/shell-parser.ts';
import type { ScenarioV1 } from '../scenarios/schema-v1.ts';
import type { SkillFile } from '../harness/agents/index.ts';
import type { McpConnector } from '../harness/ports.ts';
import { McpRegistry } from '../harness/mcp/index.ts';
import { MCP_JSON } from '../harness/mcp/index.ts';

export type LessonRun = { log: TraceEvent[]; results: RunResult[] };

export async function runLessonHeadless(
  doc: ScenarioV1,
  opts: {
    sandbox: Sandbox;
    clock: Clock;
    ids: IdGen;
    memoryStore?: MemoryStore;
    signal?: AbortSignal;
    onEvent?: (e: TraceEvent) => void;
    /** Tool ids of the scripted model start after this number. */
    scriptedToolIdStart?: number;
    /** The built-in skills (the repo's `skills/` folder), for lessons that load one. */
    skillFiles?: SkillFile[];
    /** Runs the lesson's JS custom tools (worker_threads in Node). */
    toolRunner?: UserToolRunner;
    /** Opens the lesson's `.mcp.json` servers; default, when it has one: in-page servers in Node worker threads. */
    mcpConnector?: McpConnector;
  },
): Promise<LessonRun> {
  const log: TraceEvent[] = [];
  const results: RunResult[] = [];
  const files = new FileState();
  // The app always has a memory store (IndexedDB); a fresh one per headless session.
  const memoryStore = opts.memoryStore ?? new InMemoryMemoryStore();
  let model: ModelClient | undefined;
  let memory: string | undefined;
  // One registry for the whole lesson, so every prompt talks to the same server (as in the app).
  const mcpConnector = opts.mcpConnector ?? (MCP_JSON in doc.files ? (await import('../mcp/node.ts')).createNodeMcpConnector() : undefined);
  const mcpRegistry = mcpConnector ? new McpRegistry(mcpConnector, () => opts.clock.now()) : undefined;
  try {
  for (let i = 0; i < doc.prompts.length; i++) {
    const last = results.at(-1);
    const prepared = await prepareRun({
      scenario: toRunnableScenario(doc, i),
      sandbox: opts.sandbox,
      ...(model ? { model } : {}),
      clock: opts.clock,
      ids: opts.ids,
      files,
      trusted: true,
      // Headless (Node): commands are judged on just-bash's own AST.
      shellParser: justBashShellParser,
      ...(opts.signal ? { signal: opts.signal } : {}),
      // The lesson's last prompt ends its session: SessionEnd fires at its end.
      ...(i === doc.prompts.length - 1 ? { sessionEnd: 'other' as const } : {}),
      memoryStore,
      ...(opts.scriptedToolIdStart ? { scriptedToolIdStart: opts.scriptedToolIdStart } : {}),
      ...(opts.skillFiles ? { skillFiles: opts.skillFiles } : {}),
      ...(opts.toolRunner ? { toolRunner: opts.toolRunner } : {}),
      ...(last ? { history: last.messages, contextState: last.contextState, memory: memory ?? '' } : {}),
      ...(mcpRegistry ? { mcp: { registry: mcpRegistry } } : {}),
    });
    if (i === 0) memory = prepared.input.memory ?? '';
    model = prepared.deps.model;
    const loop = runPrepared(prepared);
    let step = await loop.next();
    while (!step.done) {
      log.push(step.value);
      opts.onEvent?.(step.value);
      step = await loop.next();
    }
    results.push(step.value);
  }
  } finally {
    await mcpRegistry?.closeAll();
  }
  return { log, results };
}
