/**
 * What-if on a call shown without a run (a restored session after a reload: no run has started, so
 * no model request has loaded the page's shell parser): the starting context judges Bash on
 * just-bash's parse tree as the run did, once the parser is loaded (`WhatIfPanel` waits for
 * `pageShellParserReady`) — not on our lexer, which lets a `rm` hidden in `${x:-…}` through.
 */
import { describe, expect, it } from 'vitest';
import { whatIf } from '../../src/harness/permissions/index.ts';
import { builtinTools } from '../../src/harness/tools/index.ts';
import { pageShellParserReady } from '../../src/ui/state/page-shell-parser.ts';
import { permissionContextNow } from '../../src/ui/state/run-permissions.ts';
import { RunState } from '../../src/ui/state/run-state.svelte.ts';
import { hiddenRmScenario } from '../fixtures/hidden-rm.ts';

const call = { name: 'bash', input: { command: 'echo ${x:-$(rm keep.txt)}' } };

describe('what-if without a run', () => {
  it("judges on the shell's parse tree: the hidden rm meets the deny rule, as it did in the run", async () => {
    const ctx = permissionContextNow({ state: new RunState(), scenario: hiddenRmScenario('unit'), modeOverride: null, trust: { trusted: true } });
    expect(ctx.shell?.name).toBe('just-bash');
    await pageShellParserReady();
    const r = await whatIf(call, ctx, builtinTools());
    expect(r.outcome).toBe('deny');
    expect(r.reason).toContain('Bash(rm *)');
    // Our lexer alone (the context before this change) would not have seen the rm.
    const { shell: _shell, ...lexerOnly } = ctx;
    expect((await whatIf(call, lexerOnly, builtinTools())).outcome).not.toBe('deny');
  });
});
