/**
 * Issue 19 §1: an agent's `tools:` list, a skill's `allowed-tools` and a command's `allowed-tools`
 * naming a tool nobody has, or a Claude Code tool not available here, warn visibly — in the
 * `.claude/` import report with their line, and in the skills panel — and the file still loads.
 */
import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../src/harness/agents/subagents/definitions.ts';
import { parseSkillFile } from '../../src/harness/agents/skills/skill-file.ts';
import { sandboxSkills } from '../../src/harness/agents/skills/catalog.ts';
import { loadClaudeDir } from '../../src/harness/claude-dir/index.ts';
import { WORKDIR } from '../../src/harness/index.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const AGENT = '---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep, WebSearch, Reed\n---\nReview.\n';
const SKILL = '---\nname: deploy\ndescription: Deploys\nallowed-tools: Bash(npm run deploy *), NotebookEdit, Taks\n---\nDeploy.\n';
const COMMAND = '---\ndescription: Commit\nallowed-tools: Bash(git commit:*), LS\n---\nCommit the work.\n';

describe('tool lists that name no tool here', () => {
  it('an agent definition loads, with a warning per unknown or unavailable tool', () => {
    const r = parseDefinition('.claude/agents/reviewer.md', AGENT);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.definition.tools).toEqual(['read', 'grep', 'WebSearch', 'Reed']);
    expect(r.warnings).toEqual([expect.stringMatching(/^tools: "WebSearch" names WebSearch, a Claude Code tool not available here/), expect.stringMatching(/^tools: "Reed" names "Reed", which is neither a Claude Code tool nor one of ours/)]);
  });

  it('a skill loads, and its warnings are problems the skills panel lists', async () => {
    const r = parseSkillFile(SKILL, '.claude/skills/deploy/SKILL.md', 'deploy');
    expect(r).toMatchObject({ ok: true, warnings: [expect.stringMatching(/NotebookEdit, a Claude Code tool not available here/), expect.stringMatching(/"Taks", which is neither/)] });
    const sandbox = await createJustBashSandbox({ files: { [`${WORKDIR}/.claude/skills/deploy/SKILL.md`]: SKILL } });
    const catalog = await sandboxSkills(sandbox.fs, WORKDIR);
    expect(catalog.skills.map((s) => s.name)).toEqual(['deploy']);
    expect(catalog.problems.map((p) => p.message)).toEqual([expect.stringMatching(/^warning \(the skill loads\): .*NotebookEdit/), expect.stringMatching(/^warning \(the skill loads\): .*Taks/)]);
    await sandbox.dispose();
  });

  it('the import report warns with the line, for agents, skills and commands', () => {
    const imp = loadClaudeDir({ '.claude/agents/reviewer.md': AGENT, '.claude/skills/deploy/SKILL.md': SKILL, '.claude/commands/commit.md': COMMAND });
    expect(imp.agents).toEqual(['.claude/agents/reviewer.md']);
    expect(imp.problems.filter((p) => p.message.startsWith('warning:')).map((p) => [p.file, p.line, /WebSearch|Reed|NotebookEdit|Taks|LS/.exec(p.message)![0]])).toEqual([
      ['.claude/agents/reviewer.md', 4, 'WebSearch'],
      ['.claude/agents/reviewer.md', 4, 'Reed'],
      ['.claude/commands/commit.md', 3, 'LS'],
      ['.claude/skills/deploy/SKILL.md', 4, 'NotebookEdit'],
      ['.claude/skills/deploy/SKILL.md', 4, 'Taks'],
    ]);
  });
});
