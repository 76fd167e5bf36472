/**
 * Subagent definitions as Claude Code writes them: `.claude/agents/<name>.md` with YAML frontmatter
 * (`name`, `description`, optional `tools`, `model`, `permissionMode`, `maxTurns`, `isolation`) and the body as
 * the agent's system prompt; plus the built-in `general-purpose` agent. A file that does not parse
 * is reported with its path and line, and the others still load.
 */
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { PERMISSION_MODES, type PermissionMode } from '../../permissions/types.ts';
import { byCodeUnits } from '../../util/order.ts';
import type { SandboxFs } from '../../ports.ts';
import { formatZodIssues } from '../../tools/run-tool.ts';
import { harnessToolNameOf, toolListWarnings } from '../../permissions/tool-names.ts';

export type SubagentDefinition = {
  name: string;
  /** When to use it: goes into the `agent` tool's description, so the parent model can choose. */
  description: string;
  /** Tool names it may use (ours, after mapping Claude Code's); undefined: every tool of the parent but `agent`. */
  tools?: string[];
  /** Model id or alias; undefined or `inherit`: the parent's. */
  model?: string;
  permissionMode?: PermissionMode;
  maxTurns?: number;
  /** Work in an isolated copy of the working tree (Claude Code writes `isolation: worktree`). */
  isolation?: 'overlay';
  /** The system prompt (the file's body). */
  system: string;
  /** `builtin` or the file it came from. */
  source: string;
};

export type DefinitionProblem = { path: string; line: number; message: string };

export type LoadedDefinitions = { definitions: SubagentDefinition[]; problems: DefinitionProblem[] };

/** Claude Code's `worktree` and our own name for the same thing: both give the agent an overlay workspace. */
export const ISOLATIONS = ['worktree', 'overlay'] as const;

export const AGENTS_DIR = '.claude/agents';

/** The turn limit of a subagent whose definition sets none. */
export const DEFAULT_SUBAGENT_MAX_TURNS = 20;

export const GENERAL_PURPOSE: SubagentDefinition = {
  name: 'general-purpose',
  description:
    'General-purpose agent for researching complex questions, searching for code and carrying out multi-step tasks. ' +
    'Use it when a search or a piece of work would take many steps and you only need the outcome.',
  system:
    'You are a subagent: another agent gave you one task. Do it with the tools you have, then answer with a concise ' +
    'report of what you found or did — file paths, the key facts, anything left undone. The other agent sees only ' +
    'your final message, not your tool calls, so put everything it needs in that message.',
  source: 'builtin',
};

/**
 * Claude Code's tool names, as a definition may write them, to ours (`Agent` → `agent`,
 * `TodoWrite` → `todo_write`). `Agent(worker)` (only some agent types) is not modelled: it is
 * kept as written and so names no tool — the subagent gets no Agent tool (stricter, never wider).
 */
export function toolNameOf(name: string): string {
  return harnessToolNameOf(name);
}

const frontmatterSchema = z
  .looseObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be lower-case words joined by hyphens, e.g. "code-reviewer"'),
    description: z.string().min(1),
    tools: z.union([z.string(), z.array(z.string().min(1))]).optional(),
    model: z.string().min(1).optional(),
    permissionMode: z.enum(PERMISSION_MODES).optional(),
    maxTurns: z.number().int().min(1).max(200).optional(),
    isolation: z.enum(ISOLATIONS).optional(),
  });

/** Parses one definition file. `path` is used in messages only. */
export function parseDefinition(path: string, text: string): { ok: true; definition: SubagentDefinition; /** `tools:` entries that name no tool here (the agent still loads). */ warnings: string[] } | { ok: false; problem: DefinitionProblem } {
  const fail = (line: number, message: string) => ({ ok: false as const, problem: { path, line, message } });
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[0]?.trim() !== '---') return fail(1, 'the file must start with a "---" line, then the frontmatter (name, description), then "---"');
  const close = lines.findIndex((l, i) => i > 0 && l.trim() === '---');
  if (close < 0) return fail(1, 'the frontmatter is not closed: add a "---" line after it');
  const yamlText = lines.slice(1, close).join('\n');
  const lc = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  // File line = frontmatter line + 1 (the opening "---").
  const lineAt = (offset: number | undefined) => (offset === undefined ? 2 : lc.linePos(offset).line + 1);
  if (doc.errors.length > 0) return fail(lineAt(doc.errors[0]!.pos[0]), `YAML syntax: ${doc.errors[0]!.message.split('\n')[0]}`);
  const value: unknown = doc.toJS();
  if (!value || typeof value !== 'object' || Array.isArray(value)) return fail(2, 'the frontmatter must be a mapping with at least name and description');
  const parsed = frontmatterSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    const pair = isMap(doc.contents) ? doc.contents.items.find((p) => isScalar(p.key) && String(p.key.value) === key) : undefined;
    const line = pair ? lineAt((pair.key as { range?: [number, number, number] }).range?.[0]) : 2;
    return fail(line, formatZodIssues([issue], value)[0]!.replace(/\.$/, ''));
  }
  const fm = parsed.data;
  const tools = typeof fm.tools === 'string' ? fm.tools.split(',').map((t) => t.trim()).filter(Boolean) : fm.tools;
  return {
    ok: true,
    warnings: toolListWarnings(tools ?? [], 'tools:'),
    definition: {
      name: fm.name,
      description: fm.description,
      ...(tools ? { tools: tools.map(toolNameOf) } : {}),
      ...(fm.model && fm.model !== 'inherit' ? { model: fm.model } : {}),
      ...(fm.permissionMode ? { permissionMode: fm.permissionMode } : {}),
      ...(fm.maxTurns ? { maxTurns: fm.maxTurns } : {}),
      ...(fm.isolation ? { isolation: 'overlay' as const } : {}),
      system: lines.slice(close + 1).join('\n').trim(),
      source: path,
    },
  };
}

/**
 * The built-in agent plus every `*.md` in `<workdir>/.claude/agents/` (sorted by file name). A
 * later definition with the same name replaces an earlier one (a project may redefine
 * `general-purpose`). Never throws: an unreadable folder is simply empty.
 */
export async function loadDefinitions(fs: SandboxFs, workdir: string): Promise<LoadedDefinitions> {
  const dir = `${workdir}/${AGENTS_DIR}`;
  const problems: DefinitionProblem[] = [];
  const byName = new Map<string, SubagentDefinition>([[GENERAL_PURPOSE.name, GENERAL_PURPOSE]]);
  let entries: { name: string; kind: string }[];
  try {
    entries = await fs.list(dir);
  } catch {
    return { definitions: [...byName.values()], problems };
  }
  for (const e of [...entries].sort((a, b) => byCodeUnits(a.name, b.name))) {
    if (e.kind !== 'file' || !e.name.endsWith('.md')) continue;
    const path = `${AGENTS_DIR}/${e.name}`;
    let text: string;
    try {
      text = await fs.readFile(`${dir}/${e.name}`);
    } catch (err) {
      problems.push({ path, line: 1, message: `could not be read: ${err instanceof Error ? err.message : String(err)}` });
      continue;
    }
    const r = parseDefinition(path, text);
    if (r.ok) byName.set(r.definition.name, r.definition);
    else problems.push(r.problem);
  }
  return { definitions: [...byName.values()], problems };
}
