/**
 * The tool editor's draft: the form's fields as text, checked live into a `CustomToolDefinition`
 * (every error names its field), and saving a definition into the scenario (or deleting one).
 * Pure functions, so the editor's rules are unit-tested without a browser.
 */
import { DEFAULT_CUSTOM_TOOL_TIMEOUT_MS, parseCustomTool, type CustomToolDefinition } from '../../harness/tools/index.ts';
import type { GoldenCase } from '../../harness/golden/light.ts';
import { parseScenario, type Scenario } from '../../scenarios/schema.ts';

export type ToolDraft = {
  name: string;
  description: string;
  /** The input schema as JSON text. */
  schema: string;
  readOnly: boolean;
  concurrencySafe: boolean;
  destructive: boolean;
  timeoutMs: number;
  kind: 'js' | 'shell';
  source: string;
  command: string;
};

export const EXAMPLE_SCHEMA = '{\n  "type": "object",\n  "properties": {\n    "text": { "type": "string", "description": "What to work on" }\n  },\n  "required": ["text"]\n}\n';

export function emptyDraft(): ToolDraft {
  return {
    name: '',
    description: '',
    schema: EXAMPLE_SCHEMA,
    readOnly: false,
    concurrencySafe: false,
    destructive: false,
    timeoutMs: DEFAULT_CUSTOM_TOOL_TIMEOUT_MS,
    kind: 'js',
    source: "// input: the call's input; files: read(path), write(path, text), list(dir)\nreturn `got ${input.text}`;\n",
    command: 'jq -r .text',
  };
}

export function draftOf(def: CustomToolDefinition): ToolDraft {
  return {
    ...emptyDraft(),
    name: def.name,
    description: def.description,
    schema: `${JSON.stringify(def.inputSchema, null, 2)}\n`,
    readOnly: def.readOnly,
    concurrencySafe: def.concurrencySafe,
    destructive: def.destructive,
    timeoutMs: def.timeoutMs,
    kind: def.implementation.kind,
    ...(def.implementation.kind === 'js' ? { source: def.implementation.source } : { command: def.implementation.command }),
  };
}

/** A JSON parse error with the line it is on (the message of V8 says only a position). */
function jsonError(text: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const pos = /position (\d+)/.exec(msg);
  if (!pos) return `inputSchema: not JSON (${msg})`;
  const line = text.slice(0, Number(pos[1])).split('\n').length;
  return `inputSchema: not JSON, line ${line} (${msg})`;
}

export type DraftCheck = { ok: true; tool: CustomToolDefinition } | { ok: false; errors: string[] };

/** The draft as a definition, or every problem with its field; `others` are the names already taken. */
export function checkDraft(d: ToolDraft, others: readonly string[] = []): DraftCheck {
  let schema: unknown;
  try {
    schema = JSON.parse(d.schema);
  } catch (e) {
    return { ok: false, errors: [jsonError(d.schema, e)] };
  }
  const r = parseCustomTool({
    name: d.name.trim(),
    description: d.description,
    inputSchema: schema,
    readOnly: d.readOnly,
    concurrencySafe: d.concurrencySafe,
    destructive: d.destructive,
    timeoutMs: d.timeoutMs,
    implementation: d.kind === 'js' ? { kind: 'js', source: d.source } : { kind: 'shell', command: d.command },
  });
  if (!r.ok) return r;
  if (others.includes(r.tool.name)) return { ok: false, errors: [`name: another custom tool is already called "${r.tool.name}"`] };
  return r;
}

export type ScenarioEdit = { ok: true; scenario: Scenario } | { ok: false; errors: string[] };

function reparse(scenario: Scenario, settings: Scenario['settings']): ScenarioEdit {
  const r = parseScenario({ ...scenario, settings });
  return r.ok ? r : { ok: false, errors: r.errors };
}

/** The scenario with `tool` saved (replacing the tool called `replacing`, if given; else added last). */
export function saveTool(scenario: Scenario, tool: CustomToolDefinition, replacing?: string): ScenarioEdit {
  const list = scenario.settings.customTools ?? [];
  const at = replacing === undefined ? -1 : list.findIndex((t) => t.name === replacing);
  const next = at === -1 ? [...list, tool] : list.map((t, i) => (i === at ? tool : t));
  return reparse(scenario, { ...scenario.settings, customTools: next });
}

export function deleteTool(scenario: Scenario, name: string): ScenarioEdit {
  const next = (scenario.settings.customTools ?? []).filter((t) => t.name !== name);
  const { customTools: _old, ...rest } = scenario.settings;
  return reparse(scenario, next.length ? { ...rest, customTools: next } : rest);
}

export function saveGolden(scenario: Scenario, cases: readonly GoldenCase[]): ScenarioEdit {
  const { golden: _old, ...rest } = scenario.settings;
  return reparse(scenario, cases.length ? { ...rest, golden: [...cases] } : rest);
}
