/**
 * What the harness sorts goes into the prompt, so its order is the same in every runtime and
 * locale: UTF-16 code units (`byCodeUnits`), as `ls` under `LC_ALL=C` — `B.md` before `a.md`, where
 * a locale-aware sort puts `a.md` first. The file tree, which people read, sorts case aside first.
 */
import { describe, expect, it } from 'vitest';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { discoverClaudeMd } from '../../src/harness/memory/index.ts';
import { byCodeUnits } from '../../src/harness/util/index.ts';
import { byNameForPeople } from '../../src/ui/files/file-tree.svelte.ts';

describe('the harness sorts by code units', () => {
  it('byCodeUnits: uppercase before lowercase, then the rest by code unit; equal is 0', () => {
    expect(['b.md', 'a.md', 'B.md', '_x.md', 'ä.md'].sort(byCodeUnits)).toEqual(['B.md', '_x.md', 'a.md', 'b.md', 'ä.md']);
    expect(byCodeUnits('same', 'same')).toBe(0);
  });

  it('project rules (.claude/rules/) join the prompt in code-unit order, folders included', async () => {
    const sb = await createJustBashSandbox({
      files: {
        '/home/project/.claude/rules/a.md': 'rule a',
        '/home/project/.claude/rules/B.md': 'rule B',
        '/home/project/.claude/rules/Zeta/z.md': 'rule Zeta/z',
      },
    });
    const r = await discoverClaudeMd(sb.fs, '/home/project');
    expect(r.files.map((f) => f.path)).toEqual([
      '/home/project/.claude/rules/B.md',
      '/home/project/.claude/rules/Zeta/z.md',
      '/home/project/.claude/rules/a.md',
    ]);
    expect(r.text.indexOf('rule B')).toBeLessThan(r.text.indexOf('rule a'));
  });
});

describe('the file tree sorts names as people read them', () => {
  it('case aside first, then exactly', () => {
    expect(['b.txt', 'README.md', 'a.txt', 'readme.md', 'Zed'].sort(byNameForPeople)).toEqual(['a.txt', 'b.txt', 'README.md', 'readme.md', 'Zed']);
    expect(byNameForPeople('x', 'x')).toBe(0);
  });
});
