/**
 * `parseSettings`: text (JSON or YAML) → validated settings, or errors that name the line and
 * column and say what is wrong. One parser (`yaml`, which reads JSON too) gives source positions
 * for both formats; each schema problem is mapped back to the node it is about. A bad file is
 * reported, never silently dropped (Claude Code drops it).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { formatZodIssues } from '../tools/run-tool.ts';
import { findJsonProblem } from './json-check.ts';
import { settingsSchema, type Settings } from './schema.ts';
import { settingsWarnings } from './warnings.ts';

export type SettingsError = { line: number; column: number; message: string };

/** `warnings`: valid content that does not do what it looks like (a `Write(...)` allow, a project `bypassPermissions`). */
export type ParsedSettings = { ok: true; settings: Settings; warnings: SettingsError[] } | { ok: false; errors: SettingsError[] };

type Located = { node: Node | null; keyNode: Node | null };

/** The deepest node along `path` (a missing key points at its parent). */
function locate(doc: Document, path: readonly PropertyKey[]): Located {
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
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (format === 'json' && text.trim() !== '') {
    // Checked first, with JSON's own words: YAML accepts things JSON does not (comments, trailing commas, bare words): hold JSON to JSON.
    const problem = findJsonProblem(text);
    if (problem) return { ok: false, errors: [{ ...position(lc, problem.offset), message: `JSON syntax: ${problem.message}` }] };
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) => ({ ...position(lc, e.pos[0]), message: `${format === 'json' ? 'JSON' : 'YAML'} syntax: ${e.message.split('\n')[0]}` })),
    };
  }
  const value: unknown = doc.toJS() ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, errors: [{ line: 1, column: 1, message: 'settings must be an object (a mapping of keys such as "permissions" and "hooks")' }] };
  }
  const result = settingsSchema.safeParse(value);
  if (result.success) {
    const warnings = settingsWarnings(result.data).map((w) => ({ ...position(lc, locate(doc, w.path).node?.range?.[0]), message: w.message }));
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
  return { ok: false, errors };
}
