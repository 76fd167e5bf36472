/**
 * The permission engine's `ShellParser` port over just-bash's own parser — the one our sandbox
 * executes with (`bash.exec(…, { rawScript: true })` parses the text exactly as given, as
 * `parse` does here) — so the command that is judged is the command that runs.
 *
 * In the page too: just-bash's browser entry does not export `parse` itself, so the build adds the
 * export (`parser-export.ts`, the same function). Not `Bash#transform`: it first
 * re-indents the script (it strips leading whitespace outside the quotes and here-documents it
 * recognises), which `rawScript` execution does not: binding that would be a new differential
 * (an unrecognised `<<\EOF` whose body holds an indented `  EOF` line hides the commands after it).
 *
 * The mapper fails closed: a construct it does not map (a function definition, an arithmetic
 * command or `for ((…))`, a command inside arithmetic, a statement the parser deferred an error
 * on) makes the result `ok: false` — the engine asks — while the simple commands it did see are
 * still returned for deny and ask rules. Substitutions are found by walking every node of a word
 * (parameter defaults, here-document bodies, redirection targets), so no corner can hide one.
 */
import { parse, serialize, type CommandNode, type ScriptNode, type SimpleCommandNode, type StatementNode, type WordNode } from 'just-bash';
import type { ShellParse, ShellParser, ShellRedirect, ShellWord, SimpleCommand } from '../../harness/permissions/index.ts';

type Origin = SimpleCommand['origin'];
/** `subs` (commands inside substitutions) follow `out` (the line's own), in the lexer's order. */
type Walk = { out: SimpleCommand[]; subs: SimpleCommand[]; problems: string[]; depth: number };
type Redirection = SimpleCommandNode['redirections'][number];

/** Word parts whose value is not known until the command runs. */
const DYNAMIC_PARTS = new Set(['ParameterExpansion', 'CommandSubstitution', 'ArithmeticExpansion', 'ProcessSubstitution', 'BraceExpansion']);

export const justBashShellParser: ShellParser = {
  name: 'just-bash',
  parse(command: string): ShellParse {
    const walk: Walk = { out: [], subs: [], problems: [], depth: 0 };
    const seen = () => [...walk.out, ...walk.subs];
    try {
      script(parse(command), 'top', walk);
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e), commands: seen() };
    }
    if (walk.problems.length > 0) return { ok: false, error: [...new Set(walk.problems)].join('; '), commands: seen() };
    return { ok: true, commands: seen() };
  },
};

function script(node: ScriptNode, origin: Origin, w: Walk): void {
  statements(node.statements, origin, w);
}

function statements(list: readonly StatementNode[], origin: Origin, w: Walk): void {
  for (const st of list) {
    if (st.deferredError) w.problems.push(`a syntax error the shell reports only when it gets there (${st.deferredError.message})`);
    for (const pipeline of st.pipelines) for (const c of pipeline.commands) command(c, origin, w);
  }
}

function command(c: CommandNode, origin: Origin, w: Walk): void {
  switch (c.type) {
    case 'SimpleCommand':
      simple(c, origin, w);
      return;
    case 'Subshell':
    case 'Group':
      statements(c.body, origin, w);
      break;
    case 'If':
      for (const clause of c.clauses) {
        statements(clause.condition, origin, w);
        statements(clause.body, origin, w);
      }
      if (c.elseBody) statements(c.elseBody, origin, w);
      break;
    case 'While':
    case 'Until':
      statements(c.condition, origin, w);
      statements(c.body, origin, w);
      break;
    case 'For':
      substitutions(c.words, w);
      statements(c.body, origin, w);
      break;
    case 'Case':
      substitutions([c.word, ...c.items.map((i) => i.patterns)], w);
      for (const item of c.items) statements(item.body, origin, w);
      break;
    case 'ConditionalCommand':
      // `[[ … ]]` runs no program; judged as the lexer did, as a command named `[[`.
      substitutions(c.expression, w);
      push(w, { words: [literal('[[')], redirects: [], text: '[[ … ]]', origin });
      break;
    case 'FunctionDef':
      w.problems.push(`defines a function (${c.name}), whose body runs later under another name`);
      command(c.body, origin, w);
      break;
    case 'ArithmeticCommand':
      w.problems.push('an arithmetic command');
      substitutions(c.expression, w);
      break;
    case 'CStyleFor':
      w.problems.push('an arithmetic for loop');
      substitutions([c.init, c.condition, c.update], w);
      statements(c.body, origin, w);
      break;
    default:
      w.problems.push(`a construct the permission check does not know (${(c as { type: string }).type})`);
      return;
  }
  // A compound command's own redirections (`{ …; } > out`) write like a command's.
  if (c.redirections.length > 0) {
    substitutions(c.redirections, w);
    push(w, { words: [], redirects: c.redirections.map(redirect), text: c.redirections.map(redirectText).join(' '), origin });
  }
}

function simple(c: SimpleCommandNode, origin: Origin, w: Walk): void {
  substitutions(c, w);
  const words: ShellWord[] = [];
  for (const a of c.assignments) {
    const op = a.append ? '+=' : '=';
    if (a.array) {
      const items = a.array.map(word);
      words.push({ raw: `${a.name}${op}(${items.map((i) => i.raw).join(' ')})`, value: `${a.name}${op}(${items.map((i) => i.value).join(' ')})`, dynamic: items.some((i) => i.dynamic) });
    } else {
      const v = a.value ? word(a.value) : { raw: '', value: '', dynamic: false };
      words.push({ raw: `${a.name}${op}${v.raw}`, value: `${a.name}${op}${v.value}`, dynamic: v.dynamic });
    }
  }
  if (c.name) words.push(word(c.name));
  for (const arg of c.args) words.push(word(arg));
  // Shown without here-document bodies, as the lexer showed the line.
  const heredocs = c.redirections.filter((r) => r.target.type === 'HereDoc');
  const shown = serialize(scriptOf({ ...c, redirections: c.redirections.filter((r) => r.target.type !== 'HereDoc') })).trim();
  push(w, { words, redirects: c.redirections.map(redirect), text: [shown, ...heredocs.map(redirectText)].join(' '), origin });
}

function redirect(r: Redirection): ShellRedirect {
  if (r.target.type === 'HereDoc') return { op: r.target.stripTabs ? '<<-' : '<<', target: r.target.delimiter, fdDup: false };
  const target = word(r.target).value;
  const fdDup = (r.operator === '>&' || r.operator === '<&') && /^(\d+|-)$/.test(target);
  // `>&file` (no digits) is bash's `&>file`.
  return { op: r.operator === '>&' && !fdDup ? '&>' : r.operator, target, fdDup };
}

function redirectText(r: Redirection): string {
  const target = r.target.type === 'HereDoc' ? r.target.delimiter : word(r.target).raw;
  return `${r.fd ?? ''}${r.operator}${target}`;
}

/** A word as written (printed back by just-bash), after quote removal, and whether it is dynamic. */
function word(node: WordNode): ShellWord {
  return { raw: printWord(node), value: node.parts.map(partValue).join(''), dynamic: hasDynamic(node) };
}

function partValue(p: WordNode['parts'][number]): string {
  switch (p.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'Escaped':
      return p.value;
    case 'DoubleQuoted':
      return p.parts.map(partValue).join('');
    case 'TildeExpansion':
      return `~${p.user ?? ''}`;
    case 'Glob':
      return p.pattern;
    default:
      // Variables and substitutions are left as written, as the lexer left them.
      return printWord({ type: 'Word', parts: [p] });
  }
}

function hasDynamic(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasDynamic);
  if (node === null || typeof node !== 'object') return false;
  const n = node as { type?: unknown; user?: unknown };
  if (typeof n.type === 'string' && DYNAMIC_PARTS.has(n.type)) return true;
  if (n.type === 'TildeExpansion' && n.user) return true;
  return Object.values(node).some(hasDynamic);
}

/**
 * Every command substitution, process substitution and command inside arithmetic anywhere below
 * `node`, mapped as a command of its own (origin `substitution`): it runs too.
 */
function substitutions(node: unknown, w: Walk): void {
  if (Array.isArray(node)) {
    for (const n of node) substitutions(n, w);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as { type?: unknown; body?: unknown; command?: unknown };
  if (n.type === 'CommandSubstitution' || n.type === 'ProcessSubstitution') {
    script(n.body as ScriptNode, 'substitution', w);
    return;
  }
  if (n.type === 'ArithCommandSubst') {
    // Arithmetic keeps its `$(…)` as text: parse it too so deny rules see it, and ask.
    w.problems.push('a command inside arithmetic');
    if (typeof n.command === 'string' && w.depth < 8) {
      w.depth++;
      script(parse(n.command), 'substitution', w);
      w.depth--;
    }
    return;
  }
  for (const v of Object.values(node)) substitutions(v, w);
}

function push(w: Walk, c: SimpleCommand): void {
  (c.origin === 'top' ? w.out : w.subs).push(c);
}

function literal(value: string): ShellWord {
  return { raw: value, value, dynamic: false };
}

function scriptOf(c: SimpleCommandNode): ScriptNode {
  return { type: 'Script', statements: [{ type: 'Statement', pipelines: [{ type: 'Pipeline', commands: [c], negated: false }], operators: [], background: false }] };
}

function printWord(node: WordNode): string {
  return serialize(scriptOf({ type: 'SimpleCommand', assignments: [], name: node, args: [], redirections: [] })).trim();
}
