/**
 * The `skill` tool: progressive disclosure. Its description lists every skill by name and
 * description — all the model sees of a skill until it asks — and calling it returns the body
 * and the list of the skill's files. A skill's `allowed-tools` become allow rules for the rest of
 * the run (deny and ask rules still come first, as for any allow rule).
 */
import { z } from 'zod';
import { estimateTextTokens } from '../../context/tokens.ts';
import { fail } from '../../tools/shared.ts';
import { buildTool } from '../../tools/tool.ts';
import type { SkillCatalog } from './catalog.ts';
import type { Skill } from './skill-file.ts';

/** Where a built-in skill's extra files are written when it loads (not scanned as a project skill). */
export const BUILTIN_SKILL_FILES_DIR = '.claude/builtin-skills';

export function skillListing(catalog: SkillCatalog): string {
  return catalog.skills.map((s) => `- ${s.name}: ${s.description}`).join('\n');
}

/** The folder the model reads a skill's files from, relative to the working directory. */
export function skillDir(skill: Skill): string {
  return skill.origin === 'builtin' ? `${BUILTIN_SKILL_FILES_DIR}/${skill.name}` : skill.path.replace(/\/SKILL\.md$/, '');
}

/** What the model receives when it loads `skill` (also what is re-attached after a summary). */
export function skillBodyText(skill: Skill): string {
  const dir = skillDir(skill);
  const lines = [`<skill name="${skill.name}">`, `Base directory: ${dir}`];
  if (skill.files.length > 0) lines.push(`Files (read them when the instructions point to them): ${skill.files.map((f) => `${dir}/${f}`).join(', ')}`);
  if (skill.allowedTools.length > 0) lines.push(`Allowed without asking while this skill is loaded: ${skill.allowedTools.join(', ')}`);
  lines.push('', skill.body, '</skill>');
  return lines.join('\n');
}

const inputSchema = z.strictObject({
  skill: z.string().min(1).describe('The name of the skill to load, exactly as listed.'),
});

export function skillTool(catalog: SkillCatalog) {
  const listing = skillListing(catalog);
  return buildTool<z.infer<typeof inputSchema>>({
    name: 'skill',
    description: `Loads a skill: specialised instructions for one kind of task. Only the names and descriptions below are known until you load one; when the task matches a description, load that skill before starting and follow its instructions.

Available skills:
${listing || '(none)'}`,
    inputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(input, ctx) {
      const skill = catalog.skills.find((s) => s.name === input.skill);
      if (!skill) {
        const names = catalog.skills.map((s) => s.name);
        return fail(`No skill named "${input.skill}". ${names.length > 0 ? `Available: ${names.join(', ')}.` : 'No skills are available in this run.'}`);
      }
      if (skill.fileContents) {
        // Built-in skills live in the app, not the sandbox: put their files where `read` can reach them.
        for (const [rel, content] of Object.entries(skill.fileContents)) {
          const abs = `${ctx.sandbox.workdir}/${skillDir(skill)}/${rel}`;
          if (!(await ctx.sandbox.fs.stat(abs))) await ctx.sandbox.fs.writeFile(abs, content);
        }
      }
      const granted = skill.allowedTools.length > 0 && ctx.grants ? ctx.grants.add(skill.allowedTools) : { added: [], invalid: [] };
      const content = skillBodyText(skill);
      ctx.report?.({
        type: 'skill.loaded',
        name: skill.name,
        origin: skill.origin,
        path: skill.path,
        via: 'tool',
        ...(ctx.toolUseId ? { toolUseId: ctx.toolUseId } : {}),
        description: skill.description,
        descriptionTokens: estimateTextTokens(`- ${skill.name}: ${skill.description}`),
        body: skill.body,
        bodyTokens: estimateTextTokens(content),
        files: skill.files,
        allowedTools: skill.allowedTools,
        granted: granted.added,
      });
      const invalid = granted.invalid.length > 0 ? `\n(Note: these allowed-tools entries are not valid rules and were ignored: ${granted.invalid.join(', ')})` : '';
      return { content: content + invalid };
    },
  });
}
