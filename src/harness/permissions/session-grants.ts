/**
 * "Allow for this session": the rules a prompt's second button adds, and where they live until
 * the session ends. `suggestRules` proposes the narrowest useful rules for a call — the command's
 * first words for bash (`Bash(npm test *)`), the file for edits and reads.
 */
import { isReadOnlyProgram } from './bash-command.ts';
import { callFacts } from './call-facts.ts';
import { readIsOutside } from './read-scope.ts';
import { parseRule } from './rules.ts';
import type { ShellParser } from './shell-parser.ts';
import type { SourcedRule } from './types.ts';
import { isInside, relativeTo } from '../util/paths.ts';

/** Rules granted by the user during this session; consulted after every settings rule. */
export class SessionGrants {
  private readonly granted: SourcedRule[] = [];

  /** Adds allow rules (invalid texts are skipped and returned). */
  add(ruleTexts: readonly string[]): { added: string[]; invalid: string[] } {
    const added: string[] = [];
    const invalid: string[] = [];
    for (const text of ruleTexts) {
      const parsed = parseRule(text);
      if (!parsed.ok) {
        invalid.push(text);
        continue;
      }
      if (this.granted.some((g) => g.rule.text === parsed.rule.text)) continue;
      this.granted.push({ behavior: 'allow', source: 'session', rule: parsed.rule });
      added.push(text);
    }
    return { added, invalid };
  }

  get rules(): readonly SourcedRule[] {
    return this.granted;
  }

  clear(): void {
    this.granted.length = 0;
  }
}

function pathRule(tool: 'Edit' | 'Read', path: string, workdir: string): string {
  return isInside(workdir, path) && path !== workdir ? `${tool}(./${relativeTo(workdir, path)})` : `${tool}(/${path})`;
}

const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9:_-]*$/;
/** Programs whose first argument is the code they run. */
const INTERPRETERS = new Set(['bash', 'sh', 'zsh', 'dash', 'python', 'python3', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'tsx', 'ts-node']);
const SCRIPT_ARG = /^[A-Za-z0-9_./-]+$/;
const RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/** The rules "allow for this session" would add for this call. */
export function suggestRules(call: { name: string; input: unknown }, opts: { workdir: string; cwd?: string; shell?: ShellParser }): string[] {
  const { workdir } = opts;
  const cwd = opts.cwd ?? workdir;
  const facts = callFacts(call.name, call.input, cwd, workdir, opts.shell);
  const out: string[] = [];
  switch (facts.kind) {
    case 'bash': {
      const analysis = facts.analysis;
      if (!analysis.ok) break;
      for (const part of analysis.parts) {
        if (part.argv.length > 0 && part.hiddenShell === undefined && !isReadOnlyProgram(part)) {
          const words = part.command.split(' ');
          const second = part.argv[1];
          // `bash deploy.sh`, `python3 tool.py`: the script is what was approved, not the
          // interpreter — `Bash(bash *)` would allow any script at all.
          const scriptArg = INTERPRETERS.has(part.argv[0] ?? '') && second !== undefined && SCRIPT_ARG.test(second) && !part.dynamic[1];
          const subcommand = second !== undefined && SUBCOMMAND.test(second) && !part.dynamic[1];
          // `npm run build`: the script name is the command, not `run`.
          const third = part.argv[2];
          const runScript = subcommand && second === 'run' && RUNNERS.has(part.argv[0] ?? '') && third !== undefined && SUBCOMMAND.test(third) && !part.dynamic[2];
          const prefix = words.slice(0, runScript ? 3 : scriptArg || subcommand ? 2 : 1);
          out.push(`Bash(${prefix.join(' ')} *)`);
        }
        for (const target of part.redirectTargets) out.push(pathRule('Edit', target, workdir));
        // A read outside the working directory is granted for that path only.
        for (const path of part.readPaths) if (readIsOutside(path, workdir)) out.push(pathRule('Read', path, workdir));
      }
      break;
    }
    case 'file':
      if (facts.path !== undefined) out.push(pathRule(facts.op === 'read' ? 'Read' : 'Edit', facts.path, workdir));
      else out.push('Edit');
      break;
    case 'search':
      // Outside the working directory: the searched tree, by a Read rule (Read rules govern searches).
      out.push(readIsOutside(facts.path, workdir) ? `Read(/${facts.path === '/' ? '' : facts.path}/**)` : facts.tool === 'glob' ? 'Glob' : 'Grep');
      break;
    case 'fetch':
      out.push(facts.host ? `WebFetch(domain:${facts.host})` : 'WebFetch');
      break;
    case 'other':
      out.push(facts.tool);
      break;
  }
  return [...new Set(out)];
}
