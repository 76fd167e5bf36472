/**
 * What Claude Code's print-mode flags turn into before a run: permission rules of the CLI scope
 * (`--allowedTools` / `--disallowedTools`, Claude Code's rule syntax and tool names — the rule
 * parser maps `Bash`, `Read`, … onto our tools), the system prompt (`--system-prompt` /
 * `--append-system-prompt`), the price table (`--price-table`), and prompts from stdin
 * (`--input-format stream-json`). Each bad value is a one-line usage error naming it.
 */
import { readFile } from 'node:fs/promises';
import { parseRule } from '../harness/permissions/index.ts';
import type { SourcedRule } from '../harness/permissions/index.ts';
import { DEFAULT_PRICE_TABLE, parsePriceTable, type PriceTable } from '../harness/cost/index.ts';
import type { CliArgs } from './args.ts';

import { UsageError } from './usage-error.ts';

export { UsageError };

export function cliRules(args: Pick<CliArgs, 'allowedTools' | 'disallowedTools'>): SourcedRule[] {
  const out: SourcedRule[] = [];
  const add = (list: string[], behavior: 'allow' | 'deny', flag: string) => {
    for (const text of list) {
      const r = parseRule(text);
      if (!r.ok) throw new UsageError(`${flag}: ${r.error}`);
      out.push({ behavior, source: 'cli', rule: r.rule });
    }
  };
  // Deny first, as the rules are evaluated.
  add(args.disallowedTools, 'deny', '--disallowedTools');
  add(args.allowedTools, 'allow', '--allowedTools');
  return out;
}

export function systemPromptOf(base: string, args: Pick<CliArgs, 'systemPrompt' | 'appendSystemPrompt'>): string {
  const system = args.systemPrompt ?? base;
  return args.appendSystemPrompt ? `${system}\n\n${args.appendSystemPrompt}` : system;
}

export async function loadPriceTable(path: string | undefined): Promise<PriceTable> {
  if (!path) return DEFAULT_PRICE_TABLE;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the price table ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = parsePriceTable(json);
  if (!parsed.ok) throw new UsageError(`${path} is not a price table: ${parsed.problem}`);
  return parsed.table;
}

/**
 * `--input-format stream-json`: one user message per line,
 * `{"type":"user","message":{"role":"user","content":"…" | [{"type":"text","text":"…"}]}}`.
 * Returns each message's text, in order; a line of another shape is an error naming it.
 */
export function parseStreamJsonInput(text: string): string[] {
  const prompts: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let j: unknown;
    try {
      j = JSON.parse(line);
    } catch {
      throw new UsageError(`stdin line ${i + 1} is not JSON (--input-format stream-json takes one {"type":"user",…} message per line)`);
    }
    const m = j as { type?: unknown; message?: { role?: unknown; content?: unknown } };
    if (m.type !== 'user' || !m.message || m.message.role !== 'user') throw new UsageError(`stdin line ${i + 1} is not a user message ({"type":"user","message":{"role":"user","content":…}})`);
    const c = m.message.content;
    const textOf = typeof c === 'string' ? c : Array.isArray(c) ? c.filter((b): b is { type: 'text'; text: string } => !!b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('\n') : '';
    if (!textOf.trim()) throw new UsageError(`stdin line ${i + 1} has no text content`);
    prompts.push(textOf);
  });
  if (prompts.length === 0) throw new UsageError('--input-format stream-json: stdin held no user message');
  return prompts;
}

/** `--mcp-config`: each value is a JSON string (starts with `{`) or a file holding one. */
export async function loadMcpConfigs(values: readonly string[]): Promise<{ text: string; origin: string }[]> {
  const out: { text: string; origin: string }[] = [];
  for (const v of values) {
    if (v.trimStart().startsWith('{')) {
      out.push({ text: v, origin: '--mcp-config' });
      continue;
    }
    try {
      out.push({ text: await readFile(v, 'utf8'), origin: v });
    } catch (e) {
      throw new UsageError(`cannot read the --mcp-config file ${v}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return out;
}
