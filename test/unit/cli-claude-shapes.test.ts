/**
 * The runner speaks `claude -p`: `--output-format json` and `stream-json` parsed with the shapes
 * Claude Code's headless / Agent SDK reference gives (SDKSystemMessage `init`, SDKAssistantMessage,
 * SDKUserMessage, SDKResultMessage), written here as zod schemas from the docs, field by field.
 * Money: total_cost_usd recomputed independently from usage and the documented prices; subagents
 * roll up to their parent with their own lines; `--price-table` replaces the prices.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
// The bundle is built once per test run by the global setup (test/helpers/build-cli-once.ts).
import { runCliBundle } from '../helpers/cli.ts';

const SESSIONS = mkdtempSync(join(tmpdir(), 'hp-shapes-'));
// The bundle as a process with an empty stdin; the caller's ANTHROPIC_* variables are not passed on.
const runCli = (args: string[]) => runCliBundle(args, { HARNESS_PLAYGROUND_CONFIG_DIR: SESSIONS }, process.cwd(), '');

// ─── The shapes, from Claude Code's docs ──────────────────────────────────────────────────
const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const usage = z.object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative(), cache_creation_input_tokens: z.number().int().nonnegative(), cache_read_input_tokens: z.number().int().nonnegative() });
const block = z.looseObject({ type: z.string() });
const systemInit = z.looseObject({
  type: z.literal('system'),
  subtype: z.literal('init'),
  uuid,
  session_id: uuid,
  apiKeySource: z.string(),
  cwd: z.string(),
  tools: z.array(z.string()),
  mcp_servers: z.array(z.object({ name: z.string(), status: z.string() })),
  model: z.string(),
  permissionMode: z.enum(['default', 'acceptEdits', 'bypassPermissions', 'plan', 'dontAsk']),
  slash_commands: z.array(z.string()),
  output_style: z.string(),
});
const assistant = z.looseObject({
  type: z.literal('assistant'),
  uuid,
  session_id: uuid,
  parent_tool_use_id: z.string().nullable(),
  message: z.looseObject({ id: z.string(), type: z.literal('message'), role: z.literal('assistant'), model: z.string(), content: z.array(block), stop_reason: z.string().nullable(), usage }),
});
const user = z.looseObject({
  type: z.literal('user'),
  uuid,
  session_id: uuid,
  parent_tool_use_id: z.string().nullable(),
  message: z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(block)]) }),
});
const modelUsage = z.record(z.string(), z.looseObject({ inputTokens: z.number(), outputTokens: z.number(), cacheReadInputTokens: z.number(), cacheCreationInputTokens: z.number(), webSearchRequests: z.number(), costUSD: z.number() }));
const result = z.looseObject({
  type: z.literal('result'),
  subtype: z.enum(['success', 'error_max_turns', 'error_during_execution', 'error_max_budget_usd']),
  uuid,
  duration_ms: z.number().nonnegative(),
  duration_api_ms: z.number().nonnegative(),
  is_error: z.boolean(),
  num_turns: z.number().int(),
  result: z.string(),
  session_id: uuid,
  total_cost_usd: z.number().nonnegative(),
  usage,
  modelUsage,
  permission_denials: z.array(z.object({ tool_name: z.string(), tool_use_id: z.string(), tool_input: z.unknown() })),
});
const line = z.discriminatedUnion('type', [systemInit, assistant, user, result]);

/** The documented prices (per MTok) of the Sonnet row: base input, 5 m write, cache hit, output. */
const SONNET = { input: 3, write: 3.75, read: 0.3, output: 15 };
const dollars = (u: z.infer<typeof usage>) => (u.input_tokens * SONNET.input + u.cache_creation_input_tokens * SONNET.write + u.cache_read_input_tokens * SONNET.read + u.output_tokens * SONNET.output) / 1e6;

describe('claude -p output shapes', { timeout: 90_000 }, () => {
  it('stream-json: system init first, then assistant and user messages as they complete, the result last', async () => {
    const r = await runCli(['fix-a-bug', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => line.parse(JSON.parse(l)));
    expect(lines[0]!.type).toBe('system');
    expect(lines.at(-1)!.type).toBe('result');
    expect(lines.filter((l) => l.type === 'system' || l.type === 'result')).toHaveLength(2);
    expect(new Set(lines.map((l) => l.session_id)).size).toBe(1);
    const init = systemInit.parse(lines[0]);
    expect(init.tools).toContain('bash');
    // Every tool_use is answered in the next user line, by id.
    for (let i = 1; i < lines.length - 1; i++) {
      const l = lines[i]!;
      if (l.type !== 'assistant') continue;
      const ids = l.message.content.filter((b) => b.type === 'tool_use').map((b) => (b as unknown as { id: string }).id);
      if (ids.length === 0) continue;
      const next = user.parse(lines[i + 1]);
      expect((next.message.content as { tool_use_id?: string }[]).map((b) => b.tool_use_id)).toEqual(ids);
    }
    // None of our own trace events leak into this format.
    expect(r.stdout).not.toMatch(/"type":"(run\.start|tool\.result|model\.delta)"/);
  });

  it('json: session_id and total_cost_usd, priced field by field from usage', async () => {
    const r = await runCli(['fix-a-bug', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const o = result.parse(JSON.parse(r.stdout));
    expect(o.subtype).toBe('success');
    expect(o.total_cost_usd).toBeGreaterThan(0);
    // A scripted model is not in the table: its fallback row (Sonnet) prices it, and it says so.
    expect(o.total_cost_usd).toBeCloseTo(dollars(o.usage), 7);
    expect(Object.values(o.modelUsage).reduce((t, m) => t + m.costUSD, 0)).toBeCloseTo(o.total_cost_usd, 7);
    expect((o as unknown as { cost: { assumed_models: string[] } }).cost.assumed_models).toEqual(['scripted']);
  });

  it('subagents roll up to their parent, each with its own line; their messages carry parent_tool_use_id', async () => {
    const r = await runCli(['delegate-parallel-subagents', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout) as { total_cost_usd: number; cost: { by_agent: { agent_id: string; parent?: string; usd_own: number; usd_total: number; requests: number }[] } };
    const [main, ...children] = o.cost.by_agent;
    expect(main!.agent_id).toBe('main');
    expect(children.length).toBeGreaterThanOrEqual(2);
    for (const c of children) {
      expect(c.parent).toBe('main');
      expect(c.usd_own).toBeGreaterThan(0);
    }
    expect(main!.usd_total).toBeCloseTo(main!.usd_own + children.reduce((t, c) => t + c.usd_own, 0), 7);
    expect(o.total_cost_usd).toBeCloseTo(main!.usd_total, 7);
    const s = await runCli(['delegate-parallel-subagents', '--output-format', 'stream-json']);
    const lines = s.stdout.trim().split('\n').map((l) => line.parse(JSON.parse(l)));
    expect(lines.some((l) => (l.type === 'assistant' || l.type === 'user') && l.parent_tool_use_id !== null)).toBe(true);
  });

  it('--price-table replaces the prices; a bad one exits 2 naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hp-prices-'));
    const file = join(dir, 'prices.json');
    const row = { input: 30, cacheWrite5m: 37.5, cacheWrite1h: 60, cacheRead: 3, output: 150 };
    writeFileSync(file, JSON.stringify({ date: '2026-12-01', source: 'test', fallback: 'sonnet', models: { sonnet: row } }));
    const base = result.parse(JSON.parse((await runCli(['fix-a-bug', '--output-format', 'json'])).stdout));
    const ten = result.parse(JSON.parse((await runCli(['fix-a-bug', '--output-format', 'json', '--price-table', file])).stdout));
    expect(ten.total_cost_usd).toBeCloseTo(base.total_cost_usd * 10, 6);
    writeFileSync(file, JSON.stringify({ date: '2026-12-01', source: 'test', fallback: 'sonnet', models: { sonnet: { ...row, output: -1 } } }));
    const bad = await runCli(['fix-a-bug', '--price-table', file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not a price table: models\.sonnet\.output/);
  });

  it('-v ends with a /cost-like summary on stderr; unknown flags exit 2 naming the flag', async () => {
    const v = await runCli(['fix-a-bug', '-v']);
    expect(v.stderr).toMatch(/^Total cost: {12}\$0\.\d{4}$/m);
    expect(v.stderr).toMatch(/^ {2}main · scripted: 5 request\(s\)/m);
    expect(v.stderr).toMatch(/^Prices of \d{4}-\d{2}-\d{2}: https:\/\/docs\.anthropic\.com/m);
    const u = await runCli(['fix-a-bug', '--dangerously-do-things']);
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/unknown option --dangerously-do-things/);
  });
});
