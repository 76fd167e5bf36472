/**
 * What the built app must show for the 'fix-a-bug' scenario, read from the scenario itself (not
 * from the UI), so the e2e checks follow the scenario when it is edited.
 */
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';

export type FixABugExpectation = {
  /** Tool names of the scripted tool calls, in order. */
  toolNames: string[];
  /** Absolute sandbox path of the file the `edit` call changes. */
  editedPath: string;
  /** Text the edit puts in, and the text it takes out. */
  fixedSnippet: string;
  buggySnippet: string;
};

export async function fixABugExpectation(): Promise<FixABugExpectation> {
  const scenario = findBuiltinScenario('fix-a-bug');
  if (!scenario) throw new Error("built-in scenario 'fix-a-bug' not found in src/scenarios/library");
  if (scenario.model.kind !== 'scripted') throw new Error("'fix-a-bug' is expected to be scripted");
  const calls = scenario.model.turns.flatMap((t) => t.content).filter((b) => b.type === 'tool_use');
  const edit = calls.find((c) => c.name === 'edit');
  if (!edit) throw new Error("'fix-a-bug' has no edit tool call to check");
  const { file_path, old_string, new_string } = edit.input as Record<string, string>;
  if (!file_path || old_string === undefined || new_string === undefined) {
    throw new Error(`'fix-a-bug' edit call has an unexpected input: ${JSON.stringify(edit.input)}`);
  }
  return {
    toolNames: calls.map((c) => c.name),
    editedPath: file_path.startsWith('/') ? file_path : `/home/project/${file_path}`,
    fixedSnippet: new_string,
    buggySnippet: old_string,
  };
}
