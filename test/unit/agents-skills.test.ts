/**
 * Skills: discovery from the repo's `skills/` (through the Node loader), the sandbox's
 * `.claude/skills/` and scenarios; only descriptions in the prompt, the body on demand with
 * `skill.loaded`; `allowed-tools` honoured; loaded skills re-attached after an auto-compact.
 */
import { describe, expect, it } from 'vitest';
import { agents, builtinTools, checkTranscript, WORKDIR } from '../../src/harness/index.ts';
import { deterministicSummarizer } from '../../src/harness/context/summarizer.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';
import { nodeSkillLoader } from '../../src/skills-bundle/node.ts';
import { drain, ofType, setup } from './loop-helpers.ts';

const builtins = async () => agents.builtinSkills(await nodeSkillLoader()());

describe('skill discovery', () => {
  it('finds the five built-in skills with their files, and reports a broken SKILL.md by file and line', async () => {
    const b = await builtins();
    expect(b.problems).toEqual([]);
    expect(b.skills.map((s) => s.name)).toEqual(['code-review', 'debugging-checklist', 'git-commit-message', 'refactor-safely', 'writing-tests']);
    for (const s of b.skills) {
      expect(s.description.length).toBeGreaterThan(20);
      expect(s.files.length).toBeGreaterThan(0);
      // Every file the body names is there.
      for (const named of s.body.match(/`[a-z-]+\.md`/g) ?? []) expect(s.files).toContain(named.slice(1, -1));
    }
    const sandbox = await createJustBashSandbox({
      files: {
        '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Use when deploying.\n---\nRun deploy.sh.',
        '.claude/skills/deploy/deploy.sh': 'echo deploy',
        '.claude/skills/broken/SKILL.md': '---\nname: broken\n---\nno description',
        '.claude/skills/code-review/SKILL.md': '---\nname: code-review\ndescription: The project\'s own review rules.\n---\nOurs.',
      },
    });
    const inSandbox = await agents.sandboxSkills(sandbox.fs, WORKDIR, new Set(['deploy']));
    expect(inSandbox.problems).toEqual([{ path: '.claude/skills/broken/SKILL.md', line: 2, message: expect.stringContaining('description is missing') }]);
    const merged = agents.mergeCatalogs(b, inSandbox);
    expect(merged.skills.find((s) => s.name === 'deploy')).toMatchObject({ origin: 'scenario', files: ['deploy.sh'] });
    // The project's skill of the same name replaces the built-in.
    expect(merged.skills.find((s) => s.name === 'code-review')).toMatchObject({ origin: 'project', body: 'Ours.' });
    expect(agents.parseSkillFile('name: x', 'x/SKILL.md', 'x')).toMatchObject({ ok: false, problem: { line: 1 } });
    await sandbox.dispose();
  });
});

describe('the skill tool in the loop', () => {
  it('the prompt holds descriptions only; invoking loads the body, lists files, and honours allowed-tools', async () => {
    const catalog = await builtins();
    const { input, deps, client } = await setup(
      [
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'sh run-tests.sh' } }] },
        { content: [{ type: 'tool_use', name: 'skill', input: { skill: 'writing-tests' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'sh run-tests.sh' } }] },
        { content: [{ type: 'tool_use', name: 'read', input: { file_path: '.claude/builtin-skills/writing-tests/patterns.md' } }] },
        { content: [{ type: 'tool_use', name: 'skill', input: { skill: 'nope' } }] },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
      {
        files: { 'run-tests.sh': 'echo "3 passed"' },
        tools: agents.agentTools(builtinTools(), new Set(['skills']), catalog),
        input: { skills: catalog, permissions: { mode: 'default', rules: [], workdir: WORKDIR } },
      },
    );
    const { events, result } = await drain(input, deps);
    const skillSchema = client.requests[0]!.tools!.find((t) => t.name === 'skill')!;
    for (const s of catalog.skills) {
      expect(skillSchema.description).toContain(`- ${s.name}: ${s.description}`);
      expect(JSON.stringify(client.requests[0])).not.toContain(s.body.slice(0, 60));
    }
    const available = ofType(events, 'skills.available')[0]!;
    expect(available.skills).toHaveLength(5);
    expect(available.tokens).toBeGreaterThan(0);

    const r = ofType(events, 'tool.result');
    expect(r[0]!.isError).toBe(true); // no approval headless, before the skill
    expect(r[1]!.content).toContain('<skill name="writing-tests">');
    expect(r[1]!.content).toContain('.claude/builtin-skills/writing-tests/patterns.md');
    expect(r[2]).toMatchObject({ isError: false, content: '3 passed' }); // allowed by the skill's allowed-tools
    expect(r[3]!.content).toContain('Table-driven cases');
    expect(r[4]!.content).toContain('Available: code-review, debugging-checklist');
    const loaded = ofType(events, 'skill.loaded');
    expect(loaded).toHaveLength(1);
    expect(loaded[0]).toMatchObject({ name: 'writing-tests', via: 'tool', origin: 'builtin', granted: expect.arrayContaining(['Bash(sh run-tests.sh *)']) });
    expect(loaded[0]!.bodyTokens).toBeGreaterThan(loaded[0]!.descriptionTokens);
    const decision = ofType(events, 'permission.decision')[2]!;
    expect(decision).toMatchObject({ decision: 'allow' });
    expect(checkTranscript(result.messages)).toEqual([]);
  });

  it('a skill loaded before an auto-compact is re-attached after the summary', async () => {
    const catalog = await builtins();
    const big = Array.from({ length: 120 }, (_, i) => `line ${i} of the build log with some words to take space`).join('\n');
    const { input, deps, client } = await setup(
      [
        { content: [{ type: 'tool_use', name: 'skill', input: { skill: 'code-review' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'cat log1.txt' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'cat log2.txt' } }] },
        { content: [{ type: 'tool_use', name: 'bash', input: { command: 'cat log3.txt' } }] },
        { content: [{ type: 'text', text: 'Reviewed.' }] },
      ],
      {
        files: { 'log1.txt': big, 'log2.txt': big, 'log3.txt': big },
        tools: agents.agentTools(builtinTools(), new Set(['skills']), catalog),
        input: {
          skills: catalog,
          context: { windowTokens: 8000, autoCompactThreshold: 0.6, microcompact: { enabled: false }, collapse: { enabled: false } },
        },
      },
    );
    const { events, result } = await drain(input, { ...deps, summarize: deterministicSummarizer });
    const compactions = ofType(events, 'compaction.layer').filter((l) => l.layer === 'auto_compact' && l.fired);
    expect(compactions.length).toBeGreaterThan(0);
    const reattached = ofType(events, 'skill.loaded').filter((e) => e.via === 'reattach');
    expect(reattached.map((e) => e.name)).toContain('code-review');
    // The first request after the compact carries the body again.
    const after = client.requests.find((req, i) => i > 0 && JSON.stringify(req.messages).includes('re-attached after the summary'));
    expect(after).toBeDefined();
    expect(JSON.stringify(after!.messages)).toContain('Report format');
    expect(result.reason).toBe('completed');
    expect(checkTranscript(result.messages)).toEqual([]);
  });
});
