/**
 * yaml and RE2 load on demand (`src/harness/util/engines.ts`, issue 23 §4): the page's first screen
 * does not carry them. Their users stay synchronous, so what matters is what happens BEFORE the load
 * — a loud `EngineNotLoadedError`, never a rule that quietly "does not match" (a deny rule must not
 * let a call through) or a good file reported invalid — and that each entry point loads them itself:
 * `prepareRun`, the trust gate, a share link, the user-scope store.
 *
 * Every other test file starts with the engines loaded (`test/helpers/document-engines.ts`); each
 * test here takes a module graph of its own (`vi.resetModules`), in which nothing has loaded them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scenarioLinkUrl } from '../../src/scenarios/codec.ts';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';

/** A module of a fresh graph (after `vi.resetModules()`). */
const fresh = <T>(path: string): Promise<T> => import(/* @vite-ignore */ path) as Promise<T>;

type Engines = typeof import('../../src/harness/util/engines.ts');

// Built in this file's own graph, where the setup loaded the engines.
const tierDeny = (() => {
  const r = parseScenario({
    id: 'tier-deny',
    title: 'a tier deny',
    prompt: 'Clean up.',
    files: { 'build/out.txt': 'x\n' },
    model: {
      kind: 'scripted',
      turns: [{ content: [{ type: 'tool_use', name: 'bash', input: { command: 'rm -rf build' } }] }, { content: [{ type: 'text', text: 'done' }] }],
    },
    settings: { maxTurns: 5, always_deny: [{ pattern: 'rm\\s+-rf', reason: 'no recursive deletes' }] },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
})();

/** A link scenario whose settings file starts a hook once trusted (the trust gate must ask). */
const hookedLink: Scenario = { ...tierDeny, id: 'hooked-link', files: { '.claude/settings.json': JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo hi' }] }] } }) } };

beforeEach(() => {
  vi.resetModules();
});
afterEach(() => {
  vi.doUnmock('re2js');
});

describe('before the document engines load', () => {
  it('every synchronous user throws EngineNotLoadedError: a pattern is never reported invalid, a rule never quietly unmatched', async () => {
    const engines = await fresh<Engines>('../../src/harness/util/engines.ts');
    const { compileSafeRegex } = await fresh<typeof import('../../src/harness/util/safe-regex.ts')>('../../src/harness/util/safe-regex.ts');
    const { parseSettings } = await fresh<typeof import('../../src/harness/settings/parse.ts')>('../../src/harness/settings/parse.ts');
    const { compileMatcher } = await fresh<typeof import('../../src/harness/hooks/matcher.ts')>('../../src/harness/hooks/matcher.ts');
    const { evaluateRules } = await fresh<typeof import('../../src/harness/permissions/evaluate.ts')>('../../src/harness/permissions/evaluate.ts');
    const { callFacts } = await fresh<typeof import('../../src/harness/permissions/call-facts.ts')>('../../src/harness/permissions/call-facts.ts');
    expect(engines.documentEnginesLoaded()).toBe(false);

    expect(() => compileSafeRegex('rm\\s+-rf')).toThrow(engines.EngineNotLoadedError);
    expect(() => compileSafeRegex('rm\\s+-rf')).toThrow(/regular-expression engine \(RE2\) has not loaded yet/);
    expect(() => parseSettings('{"permissions": {"deny": ["Bash(rm *)"]}}', 'json')).toThrow(/settings parser \(yaml\) has not loaded yet/);
    // A hook matcher that is a regular expression (names only need no engine).
    expect(compileMatcher('Bash|Edit')).toMatchObject({ ok: true, kind: 'list' });
    expect(() => compileMatcher('Bash.*')).toThrow(engines.EngineNotLoadedError);
    // A regex deny rule (a YAML tier) on a matching command: a throw, not "passthrough".
    const rule = { behavior: 'deny' as const, source: 'scenario', rule: { kind: 'regex' as const, text: 'rm\\s+-rf', pattern: 'rm\\s+-rf' } };
    const facts = callFacts('bash', { command: 'rm -rf build' }, '/home/project', '/home/project');
    expect(() => evaluateRules(facts, [rule], '/home/project')).toThrow(engines.EngineNotLoadedError);

    // Loaded, the same calls answer.
    await engines.loadDocumentEngines();
    expect(engines.documentEnginesLoaded()).toBe(true);
    expect(compileSafeRegex('rm\\s+-rf')).toMatchObject({ ok: true });
    expect(compileSafeRegex('(a)\\1')).toMatchObject({ ok: false, error: expect.stringMatching(/backreferences/) });
    expect(parseSettings('{"permissions": {"deny": ["Bash(rm *)"]}}', 'json')).toMatchObject({ ok: true });
    expect(evaluateRules(facts, [rule], '/home/project').decision).toBe('deny');
  });

  it('prepareRun loads them itself: a YAML tier deny stops the command in a run', async () => {
    const engines = await fresh<Engines>('../../src/harness/util/engines.ts');
    const { prepareRun } = await fresh<typeof import('../../src/run/prepare.ts')>('../../src/run/prepare.ts');
    const { drain, ofType } = await fresh<typeof import('./loop-helpers.ts')>('./loop-helpers.ts');
    const { FakeClock, SequentialIds } = await fresh<typeof import('../../src/harness/index.ts')>('../../src/harness/index.ts');
    const { createJustBashSandbox } = await fresh<typeof import('../../src/sandbox/justbash/index.ts')>('../../src/sandbox/justbash/index.ts');
    expect(engines.documentEnginesLoaded()).toBe(false);
    const sandbox = await createJustBashSandbox();
    const { input, deps } = await prepareRun({ scenario: structuredClone(tierDeny), sandbox, clock: new FakeClock(), ids: new SequentialIds() });
    expect(engines.documentEnginesLoaded()).toBe(true);
    const { events, result } = await drain(input, deps);
    const decision = ofType(events, 'permission.decision').find((d) => d.name === 'bash')!;
    expect(decision).toMatchObject({ decision: 'deny', stage: 'rules' });
    expect(decision.decidedBy.text).toMatch(/no recursive deletes/);
    expect(result.reason).toBe('completed');
    expect(await sandbox.fs.readFile(`${sandbox.workdir}/build/out.txt`)).toBe('x\n');
    await sandbox.dispose();
  });

  it('the trust gate loads them itself before it reads what a link carries', async () => {
    const engines = await fresh<Engines>('../../src/harness/util/engines.ts');
    const { TrustGate } = await fresh<typeof import('../../src/ui/state/trust-gate.svelte.ts')>('../../src/ui/state/trust-gate.svelte.ts');
    const { MemoryTrustStore } = await fresh<typeof import('../../src/storage/memory/trust-store.ts')>('../../src/storage/memory/trust-store.ts');
    expect(engines.documentEnginesLoaded()).toBe(false);
    const gate = new TrustGate(new MemoryTrustStore());
    await gate.evaluate(hookedLink, 'link');
    expect(gate.status).toBe('asking');
    expect(gate.question?.carriers.settings.map((s) => s.file)).toContain('.claude/settings.json');
  });

  it('a share link is opened once they are in; asked before, the library says what went wrong instead of opening it', async () => {
    const hash = new URL(scenarioLinkUrl('http://localhost/', hookedLink)).hash;
    const engines = await fresh<Engines>('../../src/harness/util/engines.ts');
    const docs = await fresh<typeof import('../../src/ui/state/documents.ts')>('../../src/ui/state/documents.ts');
    const { ScenarioLibrary } = await fresh<typeof import('../../src/ui/state/library.svelte.ts')>('../../src/ui/state/library.svelte.ts');
    const library = new ScenarioLibrary([]);
    expect(library.fromHash(hash)).toBeNull();
    expect(library.loadError).toMatch(/could not load its settings and rule parsers/);
    expect(library.fromFileText('{}', 'x.json')).toBeNull();
    expect(library.loadError).toMatch(/^x\.json could not be read/);
    // The scenario reader (its schemas) is not there either: the synchronous users throw, never answer.
    expect(() => docs.documents()).toThrow(docs.DocumentsNotLoadedError);
    // The engines alone are not enough: the link is still refused until the whole layer is in.
    await engines.loadDocumentEngines();
    expect(library.fromHash(hash)).toBeNull();
    await docs.loadDocuments();
    expect(library.fromHash(hash)?.scenario.id).toBe('hooked-link');
    expect(library.loadError).toBeNull();
  });

  it('the user-scope store validates a saved scope only once they are in', async () => {
    const engines = await fresh<Engines>('../../src/harness/util/engines.ts');
    const { MemoryUserScopeStore } = await fresh<typeof import('../../src/storage/memory/user-scope-store.ts')>('../../src/storage/memory/user-scope-store.ts');
    const store = new MemoryUserScopeStore();
    store.raw = { id: 'user', file: '~/.claude/settings.json', settings: { always_deny: ['rm\\s+-rf'] }, savedAt: 1 };
    expect(engines.documentEnginesLoaded()).toBe(false);
    expect((await store.get()).scope?.settings.always_deny).toEqual(['rm\\s+-rf']);
  });
});

describe('when they cannot be loaded (a chunk the page could not fetch)', () => {
  it('the load rejects with what happened and what to do, and the next call tries again', async () => {
    vi.doMock('re2js', () => {
      throw new Error('Failed to fetch dynamically imported module: /assets/re2js-x.js');
    });
    const engines = await fresh<Engines>('../../src/harness/util/engines.ts');
    await expect(engines.loadDocumentEngines()).rejects.toThrow(/^Could not load the settings and rule parsers \(.+\)\. Check the connection and reload the page\.$/s);
    expect(engines.documentEnginesLoaded()).toBe(false);
    vi.doUnmock('re2js');
    await engines.loadDocumentEngines();
    expect(engines.documentEnginesLoaded()).toBe(true);
  });

  it('the trust gate fails closed: a link that carries hooks is declined (nothing in it acts), and "Trust…" asks once they load', async () => {
    vi.doMock('re2js', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { TrustGate } = await fresh<typeof import('../../src/ui/state/trust-gate.svelte.ts')>('../../src/ui/state/trust-gate.svelte.ts');
    const { MemoryTrustStore } = await fresh<typeof import('../../src/storage/memory/trust-store.ts')>('../../src/storage/memory/trust-store.ts');
    const gate = new TrustGate(new MemoryTrustStore());
    await gate.evaluate(hookedLink, 'link');
    expect(gate.status).toBe('declined');
    expect(gate.trusted).toBe(false);
    await gate.reconsider(hookedLink);
    expect(gate.status).toBe('declined');
    vi.doUnmock('re2js');
    await gate.reconsider(hookedLink);
    expect(gate.status).toBe('asking');
  });
});
