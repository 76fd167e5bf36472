/**
 * Issue 21 §4: the harness boundary is enforced by ESLint, not told. The project's own config is
 * run (ESLint's API, `lintText`) on planted imports: code outside `src/harness/` may import only
 * its public entry points (index.ts, the contracts beside it, a folder's `index.ts`), and code
 * inside imports nothing outside it (nor browser packages).
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** The no-restricted-imports messages ESLint gives `code` as if it were the file `path`. */
async function restricted(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the harness import boundary (ESLint no-restricted-imports)', () => {
  it('refuses an import of a harness internal from outside the harness', async () => {
    const bad = await restricted('src/ui/team/planted.ts', "import { Team } from '../../harness/agents/teams/team.ts';\nexport const t = Team;\n");
    expect(bad).toHaveLength(1);
    expect(bad[0]).toContain('harness/index.ts');
    const typeOnly = await restricted('src/scenarios/planted.ts', "import type { LoopState } from '../harness/loop/types.ts';\nexport type S = LoopState;\n");
    expect(typeOnly).toHaveLength(1);
    // A sub-folder's index is the folder's own business: the sub-entry point is the top folder's.
    expect(await restricted('src/ui/team/planted.ts', "import { Team } from '../../harness/agents/teams/index.ts';\nexport const t = Team;\n")).toHaveLength(1);
  });

  it('lets outside code through the public doors', async () => {
    const ok = [
      "import { agentLoop } from '../../harness/index.ts';",
      "import type { ModelClient } from '../../harness/ports.ts';",
      "import { builtinTools as Team } from '../../harness/tools/index.ts';",
      "import { teammateTabRun } from '../../harness/agents/index.ts';",
    ];
    expect(await restricted('src/ui/team/planted.ts', `${ok.join('\n')}\nexport const all = [agentLoop, Team, teammateTabRun];\nexport type M = ModelClient;\n`)).toEqual([]);
  });

  it('refuses an import out of the harness, at every folder depth', async () => {
    expect(await restricted('src/harness/planted.ts', "import { x } from '../ui/x.ts';\nexport const y = x;\n")).toHaveLength(1);
    expect(await restricted('src/harness/agents/teams/planted.ts', "import { TeamTabLink } from '../../../ui/team/tab-link.ts';\nexport const y = TeamTabLink;\n")).toHaveLength(1);
    expect(await restricted('src/harness/loop/planted.ts', "import { x } from '../../storage/x.ts';\nexport const y = x;\n")).toHaveLength(1);
    // Inside the harness, any of its own files is fine.
    expect(await restricted('src/harness/agents/teams/planted.ts', "import { agentLoop } from '../../loop/agent-loop.ts';\nexport const y = agentLoop;\n")).toEqual([]);
  });

  it('still refuses browser packages inside the harness', async () => {
    expect(await restricted('src/harness/loop/planted.ts', "import { openDB } from 'idb';\nexport const y = openDB;\n")).toHaveLength(1);
  });
});
