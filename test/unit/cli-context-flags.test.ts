/**
 * The runner's context flags (issue 23 §3): `--context-window`, `--autocompact-threshold`,
 * `--collapse-threshold` and `--context-settings JSON|FILE` reach the run's context pipeline (the
 * window and auto-compact line of its `context.assembled` events), win over the scenario's own
 * settings, and a bad value is a usage error (exit 2) naming it before anything runs.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpText, parseCliArgs } from '../../src/cli/args.ts';
import { mergeContextSettings } from '../../src/cli/context-flags.ts';
import { runCliInProcess } from '../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'cli-context-'));
const scenario = (context?: object) => {
  const path = join(dir, `s-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      id: 'ctx',
      title: 'ctx',
      description: 'test',
      prompt: 'Go.',
      files: { 'a.txt': 'hello\n' },
      model: { kind: 'scripted', turns: [{ content: [{ type: 'tool_use', name: 'read', input: { file_path: 'a.txt' } }] }, { content: [{ type: 'text', text: 'done' }] }] },
      settings: { maxTurns: 5, ...(context ? { context } : {}) },
    }),
  );
  return path;
};
type Assembled = { type: string; window?: number; threshold?: { fraction: number; tokens: number } };
const assembled = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Assembled).filter((e) => e.type === 'context.assembled');
const run = (args: string[]) => runCliInProcess(args, { ANTHROPIC_API_KEY: '' });

describe('context flags', () => {
  it('parse: a window in tokens (or 100k), thresholds as a fraction or a percentage', () => {
    const p = parseCliArgs(['x.json', '--context-window', '100k', '--autocompact-threshold', '80%', '--collapse-threshold', '0.6', '--context-settings', '{"snip":{"enabled":true}}']);
    expect(p).toMatchObject({ ok: true, args: { context: { windowTokens: 100_000, autoCompactThreshold: 0.8, collapseThreshold: 0.6, settings: '{"snip":{"enabled":true}}' } } });
    expect(parseCliArgs(['x.json', '--autocompact-threshold', '90'])).toMatchObject({ ok: true, args: { context: { autoCompactThreshold: 0.9 } } });
  });

  it.each([
    [['--context-window', 'big'], /--context-window needs the window in tokens/],
    [['--context-window', '10'], /--context-window needs the window in tokens/],
    [['--autocompact-threshold', '0'], /--autocompact-threshold needs a share of the context window/],
    [['--collapse-threshold', '150%'], /--collapse-threshold needs a share/],
    [['--context-settings'], /--context-settings needs a JSON object or a JSON file/],
  ])('%j is refused by the parser', (flags, problem) => {
    const p = parseCliArgs(['x.json', ...flags]);
    expect(p.ok).toBe(false);
    if (!p.ok) expect(p.problem).toMatch(problem);
  });

  it('--help documents every context flag', () => {
    const help = helpText([]);
    for (const f of ['--context-window TOKENS', '--autocompact-threshold F', '--collapse-threshold F', '--context-settings JSON|FILE']) expect(help).toContain(f);
  });

  it('a layer given by the flags keeps the scenario’s other fields of that layer', () => {
    expect(mergeContextSettings({ windowTokens: 50_000, collapse: { keepRecentExchanges: 3 } }, { collapse: { threshold: 0.6 } })).toEqual({ windowTokens: 50_000, collapse: { keepRecentExchanges: 3, threshold: 0.6 } });
  });

  it('without flags the run uses the scenario’s window; the flags win over it', { timeout: 60_000 }, async () => {
    const file = scenario({ windowTokens: 150_000 });
    const plain = await run([file, '--output-format', 'trace']);
    expect(plain.code).toBe(0);
    expect(assembled(plain.stdout)[0]).toMatchObject({ window: 150_000, threshold: { fraction: 0.85 } });
    const tuned = await run([file, '--output-format', 'trace', '--context-window', '64000', '--autocompact-threshold', '0.5']);
    expect(tuned.code).toBe(0);
    const events = assembled(tuned.stdout);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e).toMatchObject({ window: 64_000, threshold: { fraction: 0.5, tokens: 32_000 } });
  });

  it('--context-settings takes a file; a single flag wins over it', { timeout: 60_000 }, async () => {
    const settings = join(dir, 'context.json');
    writeFileSync(settings, JSON.stringify({ windowTokens: 80_000, autoCompactThreshold: 0.75 }));
    const r = await run([scenario(), '--output-format', 'trace', '--context-settings', settings, '--context-window', '90000']);
    expect(r.code).toBe(0);
    expect(assembled(r.stdout)[0]).toMatchObject({ window: 90_000, threshold: { fraction: 0.75 } });
  });

  it.each([
    ['{"windowTokens": -5}', /the context settings are not valid:\n {2}windowTokens: /],
    ['{"microcompact": {"keepRecnt": 4}}', /unknown keys: microcompact\.keepRecnt/],
    ['{"windowTokens": 1', /--context-settings is not JSON/],
    ['[1]', /--context-settings must be a JSON object/],
    [join(dir, 'missing.json'), /cannot read the --context-settings file/],
  ])('--context-settings %s is a usage error before anything runs', async (value, problem) => {
    const r = await run([scenario(), '--context-settings', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(problem);
    expect(r.stdout).toBe('');
  });
});
