/**
 * "Test call" in the tool editor: runs the draft tool once on the live sandbox with an input the
 * person types. It is the person's own action (like the terminal), so no permission prompt; the
 * input is still checked against the schema first, and the files the call changed are reported
 * so the caller records them as a user `sandbox.changed` event (the log stays consistent).
 */
import { realClock, randomIds } from '../../harness/clock.ts';
import type { Sandbox, UserToolRunner } from '../../harness/ports.ts';
import { customTool, type CustomToolDefinition } from '../../harness/tools/index.ts';
import { FileState } from '../../harness/tools/index.ts';
import { formatZodIssues } from '../../harness/tools/index.ts';

export type TestCallResult = { content: string; isError: boolean; changed: string[] };

export async function testCall(def: CustomToolDefinition, inputText: string, sandbox: Sandbox, runner: UserToolRunner): Promise<TestCallResult> {
  let input: unknown;
  try {
    input = JSON.parse(inputText);
  } catch (e) {
    return { content: `The test input is not JSON: ${e instanceof Error ? e.message : String(e)}`, isError: true, changed: [] };
  }
  const tool = customTool(def, { runner });
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return { content: `The input does not fit the schema:\n${formatZodIssues(parsed.error.issues, input).join('\n')}`, isError: true, changed: [] };
  const changed = new Set<string>();
  const unwatch = sandbox.fs.watch((e) => e.paths.forEach((p) => changed.add(p)));
  try {
    const out = await tool.call(parsed.data, {
      sandbox,
      cwd: sandbox.workdir,
      signal: new AbortController().signal,
      onOutput: () => {},
      files: new FileState(),
      clock: realClock,
      ids: randomIds,
      agentId: 'user',
    });
    return { content: out.content, isError: out.isError ?? false, changed: [...changed].sort() };
  } finally {
    unwatch();
  }
}
