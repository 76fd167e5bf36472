/**
 * `parseSettings`: text (JSON or YAML) → validated settings, or errors that name the line and
 * column and say what is wrong. One parser (`yaml`, which reads JSON too) gives source positions
 * for both formats; each schema problem is mapped back to the node it is about. A bad file is
 * reported, never silently dropped (Claude Code drops it).
 *
 * yaml (and RE2, for the tier patterns the schema checks) load on demand: callers await
 * `loadDocumentEngines()` (`util/engines.ts`) first; before that this throws `EngineNotLoadedError`.
 */
import type { Document, LineCounter, Node } from 'yaml';
import type { z } from 'zod';
import { formatZodIssues } from '../tools/run-tool.ts';
import { findJsonProblem } from './json-check.ts';
import { settingsSchema, type Settings } from './schema.ts';
import { settingsWarnings, type SettingsWarningAt } from './warnings.ts';
import { leniently } from './lenient.ts';
import { denyEverything, failClosed, restrictionsOnly } from './fail-closed.ts';
import { yamlEngine } from '../util/engines.ts';

export type SettingsError = { line: number; column: number; message: string };

/**
 * `warnings`: valid content that does not do what it looks like (a `Write(...)` allow, a project
 * `bypassPermissions`), and what Claude Code accepts that is not used or not run here.
 * On errors, `fallback` is what the document still contributes, failing closed
 * (`fail-closed.ts`): loaders apply it so a file's deny rules never vanish with its mistakes;
 * `fallbackNotes` says what fell closed.
 */
export type ParsedSettings =
  | { ok: true; settings: Settings; warnings: SettingsError[] }
  | { ok: false; errors: SettingsError[]; warnings: SettingsError[]; fallback: Settings; fallbackNotes: string[] };

type Located = { node: Node | null; keyNode: Node | null };

/** The deepest node along `path` (a missing key points at its parent). */
function locate(doc: Document, path: readonly PropertyKey[]): Located {
  const { isMap, isScalar, isSeq } = yamlEngine();
  let node: Node | null = (doc.contents as Node | null) ?? null;
  let keyNode: Node | null = null;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(key));
      if (!pair) break;
      keyNode = (pair.key as Node | null) ?? null;
      node = (pair.value as Node | null) ?? keyNode;
    } else if (isSeq(node)) {
      const item = node.items[Number(key)];
      if (item === undefined) break;
      keyNode = null;
      node = item as Node;
    } else break;
  }
  return { node, keyNode };
}

function position(lc: LineCounter, offset: number | undefined): { line: number; column: number } {
  if (offset === undefined) return { line: 1, column: 1 };
  const p = lc.linePos(offset);
  return { line: p.line, column: p.col };
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(the settings)';
  if (issue.code === 'custom') return `${field}: ${issue.message.replace(/\.$/, '')}`;
  return formatZodIssues([issue], value)[0]!.replace(/\.$/, '');
}

export function parseSettings(text: string, format: 'json' | 'yaml'): ParsedSettings {
  const { isMap, isScalar, LineCounter, parseDocument } = yamlEngine();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (format === 'json' && text.trim() !== '') {
    // Checked first, with JSON's own words: YAML accepts things JSON does not (comments, trailing commas, bare words): hold JSON to JSON.
    const problem = findJsonProblem(text);
    if (problem) {
      const errors = [{ ...position(lc, problem.offset), message: `JSON syntax: ${problem.message}` }];
      // A laxer reading (YAML's) may still find the deny and ask rules: keep those, nothing else.
      const lax: unknown = doc.errors.length === 0 ? doc.toJS() : null;
      const salvage = lax !== null && typeof lax === 'object' && !Array.isArray(lax) ? failClosed(restrictionsOnly(lax as Record<string, unknown>)) : denyEverything('this settings file is not valid JSON');
      return { ok: false, errors, warnings: [], fallback: salvage.settings, fallbackNotes: salvage.notes };
    }
  }
  if (doc.errors.length > 0) {
    const broken = denyEverything(`this settings file is not valid ${format === 'json' ? 'JSON' : 'YAML'}`);
    return {
      ok: false,
      errors: doc.errors.map((e) => ({ ...position(lc, e.pos[0]), message: `${format === 'json' ? 'JSON' : 'YAML'} syntax: ${e.message.split('\n')[0]}` })),
      warnings: [],
      fallback: broken.settings,
      fallbackNotes: broken.notes,
    };
  }
  const raw: unknown = doc.toJS() ?? {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    const broken = denyEverything('these settings are not an object');
    return { ok: false, errors: [{ line: 1, column: 1, message: 'settings must be an object (a mapping of keys such as "permissions" and "hooks")' }], warnings: [], fallback: broken.settings, fallbackNotes: broken.notes };
  }
  const lenient = leniently(raw as Record<string, unknown>);
  const value = lenient.value;
  const at = (w: SettingsWarningAt): SettingsError => ({ ...position(lc, locate(doc, w.path).node?.range?.[0]), message: w.message });
  const result = settingsSchema.safeParse(value);
  if (result.success) {
    const warnings = [...lenient.warnings, ...settingsWarnings(result.data)].map(at);
    warnings.sort((a, b) => a.line - b.line || a.column - b.column);
    return { ok: true, settings: result.data, warnings };
  }
  const errors = result.error.issues.map((issue): SettingsError => {
    const { node, keyNode } = locate(doc, issue.path);
    let target = node;
    if (issue.code === 'unrecognized_keys' && isMap(node)) {
      const bad = node.items.find((p) => isScalar(p.key) && issue.keys.includes(String(p.key.value)));
      if (bad) target = bad.key as Node;
    } else if (issue.path.length > 0 && locate(doc, issue.path.slice(0, -1)).node === node) {
      // The key itself is missing: point at the parent's key when there is one.
      target = keyNode ?? node;
    }
    return { ...position(lc, target?.range?.[0]), message: issueMessage(issue, value) };
  });
  errors.sort((a, b) => a.line - b.line || a.column - b.column);
  const salvage = failClosed(value);
  return { ok: false, errors, warnings: [...lenient.warnings, ...settingsWarnings(salvage.settings)].map(at), fallback: salvage.settings, fallbackNotes: salvage.notes };
}
