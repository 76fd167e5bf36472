/** The tool editor's rules, without a browser: live errors name fields, save / replace / delete, golden edits, the diagram text. */
import { describe, expect, it } from 'vitest';
import { checkDraft, deleteTool, draftOf, emptyDraft, saveGolden, saveTool } from '../../src/ui/tools/tool-draft.ts';
import { toolsNodeText } from '../../src/ui/tools/diagram-tools.ts';
import { withToolsOf } from '../../src/ui/tools/tools-in-doc.ts';
import { findBuiltinScenario } from '../../src/scenarios/library/index.ts';

const base = findBuiltinScenario('fix-a-bug')!;

describe('tool editor drafts', () => {
  it('an empty draft asks for a name and a description; broken JSON says its line', () => {
    const r = checkDraft(emptyDraft());
    expect(r.ok ? [] : r.errors.map((e) => e.split(':')[0])).toEqual(['name', 'description']);
    const bad = checkDraft({ ...emptyDraft(), name: 'x', description: 'd', schema: '{\n  "type": "object",\n  oops\n}' });
    expect(bad.ok ? '' : bad.errors[0]).toMatch(/^inputSchema: not JSON, line 3/);
  });

  it('a taken name is refused; save adds, save with the old name replaces, delete removes', () => {
    const draft = { ...emptyDraft(), name: 'echo_it', description: 'Echoes.', kind: 'shell' as const, command: 'cat' };
    const ok = checkDraft(draft);
    if (!ok.ok) throw new Error(ok.errors.join());
    expect(checkDraft(draft, ['echo_it'])).toEqual({ ok: false, errors: ['name: another custom tool is already called "echo_it"'] });
    const added = saveTool(base, ok.tool);
    if (!added.ok) throw new Error();
    expect(added.scenario.settings.customTools?.map((t) => t.name)).toEqual(['echo_it']);
    const renamed = checkDraft({ ...draftOf(ok.tool), name: 'echo_that' });
    if (!renamed.ok) throw new Error();
    const replaced = saveTool(added.scenario, renamed.tool, 'echo_it');
    expect(replaced.ok && replaced.scenario.settings.customTools?.map((t) => t.name)).toEqual(['echo_that']);
    const gone = replaced.ok ? deleteTool(replaced.scenario, 'echo_that') : null;
    expect(gone?.ok && gone.scenario.settings.customTools).toBeUndefined();
    expect(toolsNodeText(added.scenario, 'bash · read · edit', 'Tools.')).toEqual({ sub: 'bash · read · +1 custom', about: 'Tools. Custom tools: echo_it.' });
    expect(toolsNodeText(base, 'bash · read · edit', 'Tools.')).toEqual({ sub: 'bash · read · edit', about: 'Tools.' });
  });

  it('golden cases are saved into the scenario and travel into the lesson document', () => {
    const lesson = findBuiltinScenario('golden-hook-regression')!;
    const one = saveGolden(base, lesson.settings.golden!.slice(0, 1));
    if (!one.ok) throw new Error();
    expect(one.scenario.settings.golden?.map((c) => c.id)).toEqual(['rm-denied']);
    expect(withToolsOf(base.settings, one.scenario.settings).golden?.map((c) => c.id)).toEqual(['rm-denied']);
    const none = saveGolden(one.scenario, []);
    expect(none.ok && none.scenario.settings.golden).toBeUndefined();
  });
});
