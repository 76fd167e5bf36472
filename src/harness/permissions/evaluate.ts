/**
 * The rules stage: deny → ask → allow across every rule source, first match wins, specificity
 * ignored — a deny anywhere beats an allow anywhere. A bash command is judged part by part: every
 * part must pass on its own, and a part passes when an allow rule matches it or it is a built-in
 * read-only command; output redirected to a file needs an `Edit` allow rule for that file (or a
 * mode that allows edits). What no rule settles is handed to the mode stage as `needs`.
 */
import { isReadOnlyProgram, matchBashSpecifier, type CommandPart } from './bash-command.ts';
import type { CallFacts } from './call-facts.ts';
import { matchPathPattern } from './path-match.ts';
import { PATH_RULE_TOOLS, ruleNamesTool } from './rules.ts';
import type { DecidedBy, RuleBehavior, SourcedRule } from './types.ts';
import { isInside } from '../util/paths.ts';
import { compileSafeRegex, type SafeRegex } from '../util/safe-regex.ts';
import { readIsOutside } from './read-scope.ts';

/** Something no rule settled and that needs approval (from a mode or a person). */
export type Need =
  | { kind: 'command'; part: string; argv: string[] }
  | { kind: 'redirect'; part: string; target: string }
  | { kind: 'hidden_shell'; part: string }
  | { kind: 'parse'; part: string; error: string }
  | { kind: 'tool'; part: string }
  /** A read outside the working directory and every additional directory (settled by a Read allow rule or a person). */
  | { kind: 'outside_read'; part: string; path: string };

export type PartVerdict = {
  text: string;
  command: string;
  origin: CommandPart['origin'];
  status: 'deny' | 'ask' | 'allow' | 'pending';
  reason: string;
  decidedBy?: DecidedBy;
  needs: Need[];
};

export type RulesVerdict = {
  decision: 'deny' | 'ask' | 'allow' | 'passthrough';
  reason: string;
  decidedBy?: DecidedBy;
  /** Bash only: the verdict on each part. */
  parts?: PartVerdict[];
  /** What still needs approval when the decision is `passthrough` (or `ask` from a safety check). */
  needs: Need[];
};

export function describeRule(r: SourcedRule): string {
  return r.rule.kind === 'regex' && r.rule.reason ? `${r.rule.text} — ${r.rule.reason} (${r.source})` : `${r.rule.text} (${r.source})`;
}

function ruleBy(r: SourcedRule): DecidedBy {
  return { kind: 'rule', text: describeRule(r) };
}

// Tier patterns come from documents: RE2 (linear time) so `(a+)+$` cannot freeze the tab.
function regex(pattern: string): SafeRegex | null {
  const r = compileSafeRegex(pattern, { ignoreCase: true });
  return r.ok ? r.regex : null;
}

function regexRuleMatches(r: SourcedRule, tool: string, text: string): boolean {
  if (r.rule.kind !== 'regex') return false;
  if (r.rule.tool !== undefined && !regex(r.rule.tool)?.test(tool)) return false;
  return regex(r.rule.pattern)?.test(text) ?? false;
}

function pathRuleMatches(spec: string, paths: readonly string[], workdir: string): boolean {
  return paths.some((p) => matchPathPattern(spec, p, workdir));
}

/** Whether a rule matches one part of a bash command. */
function matchesPart(r: SourcedRule, part: CommandPart, workdir: string): boolean {
  const rule = r.rule;
  if (rule.kind === 'regex') return regexRuleMatches(r, 'bash', part.command);
  if (ruleNamesTool(rule.tool, 'bash')) return rule.specifier === undefined || matchBashSpecifier(rule.specifier, part.command);
  if (rule.specifier === undefined || r.behavior === 'allow') return false;
  // A Read deny/ask also covers bash parts that read the file (observed: `cat .env`);
  // an Edit/Write deny/ask covers parts that write it (`> file`, `rm file`, `tee file`).
  if (rule.tool === 'Read') return pathRuleMatches(rule.specifier, part.readPaths, workdir);
  if (isEditRule(rule.tool) || rule.tool === 'Write') return pathRuleMatches(rule.specifier, [...part.redirectTargets, ...part.writePaths], workdir);
  return false;
}

/** A call's input field, as a string, when it is one. */
function inputString(facts: CallFacts, key: string): string | undefined {
  const v = facts.kind === 'other' ? facts.input?.[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/**
 * A specifier on a tool that is not bash, a file tool or a fetch: `Agent(Explore)` names a
 * subagent type, `Skill(name)` a skill (as in Claude Code). A specifier we cannot read on any
 * other tool fails closed: a deny or ask covers the whole tool, an allow covers nothing.
 */
function otherSpecifierMatches(tool: string, spec: string, facts: CallFacts, behavior: SourcedRule['behavior']): boolean {
  if (tool === 'Agent' || tool === 'Task') {
    if (facts.tool !== 'agent') return behavior !== 'allow';
    return (inputString(facts, 'subagent_type') ?? 'general-purpose') === spec;
  }
  if (tool === 'Skill') return inputString(facts, 'skill') === spec;
  return behavior !== 'allow';
}

/** Whether a rule matches a call of a tool other than bash. */
function matchesCall(r: SourcedRule, facts: CallFacts, workdir: string): boolean {
  const rule = r.rule;
  if (rule.kind === 'regex') return regexRuleMatches(r, facts.tool, facts.summary);
  const spec = rule.specifier;
  if (ruleNamesTool(rule.tool, facts.tool)) {
    if (spec === undefined) return true;
    if ((facts.kind === 'file' || facts.kind === 'search') && PATH_RULE_TOOLS.has(rule.tool)) {
      return facts.path !== undefined && matchPathPattern(spec, facts.path, workdir);
    }
    if (facts.kind === 'fetch' && spec.startsWith('domain:')) {
      const want = spec.slice(7).toLowerCase();
      const host = facts.host?.toLowerCase();
      if (!host) return false;
      return want.startsWith('*.') ? host.endsWith(want.slice(1)) : host === want;
    }
    return otherSpecifierMatches(rule.tool, spec, facts, r.behavior);
  }
  // Read rules govern searches too (glob and grep read what they search): a Read allow lets a
  // search outside the working directory run, a Read deny of a directory refuses searching it
  // (files a deny covers inside a searched tree are skipped by the tools themselves).
  if (rule.tool === 'Read' && facts.kind === 'search') return spec === undefined || matchPathPattern(spec, facts.path, workdir);
  // An Edit allow with a path also lets that path be read and searched (Claude Code: permission
  // to edit a path covers reading it; issue 20 §4). Only allows: an Edit deny does not stop reads.
  if (isEditRule(rule.tool) && spec !== undefined && r.behavior === 'allow' && ((facts.kind === 'file' && facts.op === 'read') || facts.kind === 'search')) {
    return facts.path !== undefined && matchPathPattern(spec, facts.path, workdir);
  }
  // A Read deny/ask also covers editing that file (observed).
  if (rule.tool === 'Read' && spec !== undefined && r.behavior !== 'allow') {
    return facts.kind === 'file' && facts.op === 'edit' && facts.path !== undefined && matchPathPattern(spec, facts.path, workdir);
  }
  return false;
}

function firstMatch(rules: readonly SourcedRule[], behavior: RuleBehavior, test: (r: SourcedRule) => boolean): SourcedRule | undefined {
  return rules.find((r) => r.behavior === behavior && test(r));
}

/** Whether an Edit allow rule covers writing `target` (inside the workdir only). */
function editAllowed(rules: readonly SourcedRule[], target: string, workdir: string): SourcedRule | undefined {
  if (!isInside(workdir, target)) return undefined;
  return rules.find(
    (r) =>
      r.behavior === 'allow' &&
      r.rule.kind === 'tool' &&
      r.rule.tool === 'Edit' &&
      (r.rule.specifier === undefined || matchPathPattern(r.rule.specifier, target, workdir)),
  );
}

const isEditRule = (tool: string) => tool === 'Edit' || tool === 'MultiEdit';

/** A Read allow rule that covers reading `path` (a bare `Read` covers every path), or an Edit allow naming it (editing covers reading). */
function readAllowed(rules: readonly SourcedRule[], path: string, workdir: string): SourcedRule | undefined {
  return rules.find(
    (r) =>
      r.behavior === 'allow' &&
      r.rule.kind === 'tool' &&
      ((r.rule.tool === 'Read' && (r.rule.specifier === undefined || matchPathPattern(r.rule.specifier, path, workdir))) ||
        (isEditRule(r.rule.tool) && r.rule.specifier !== undefined && matchPathPattern(r.rule.specifier, path, workdir))),
  );
}

function judgePart(part: CommandPart, rules: readonly SourcedRule[], workdir: string, additional: readonly string[]): PartVerdict {
  const base = { text: part.text, command: part.command, origin: part.origin };
  const deny = firstMatch(rules, 'deny', (r) => matchesPart(r, part, workdir));
  if (deny) return { ...base, status: 'deny', reason: `denied by ${describeRule(deny)}`, decidedBy: ruleBy(deny), needs: [] };
  const ask = firstMatch(rules, 'ask', (r) => matchesPart(r, part, workdir));
  if (ask) return { ...base, status: 'ask', reason: `${describeRule(ask)} asks for approval`, decidedBy: ruleBy(ask), needs: [] };

  const needs: Need[] = [];
  const settledBy: string[] = [];
  let decidedBy: DecidedBy | undefined;
  if (part.hiddenShell !== undefined) {
    // The wrapper hides a command in a string: no allow rule settles it (its inner parts are
    // judged separately, so a denied inner command is denied outright).
    needs.push({ kind: 'hidden_shell', part: part.text });
  } else if (part.argv.length > 0) {
    const allow = firstMatch(rules, 'allow', (r) => matchesPart(r, part, workdir));
    if (allow) {
      settledBy.push(`allowed by ${describeRule(allow)}`);
      decidedBy = ruleBy(allow);
    } else if (isReadOnlyProgram(part)) {
      settledBy.push(`${part.argv[0]} is a built-in read-only command`);
      decidedBy = { kind: 'readonly', text: part.argv[0]! };
    } else {
      needs.push({ kind: 'command', part: part.text, argv: part.argv });
    }
  }
  // Reads outside the working directory ask, whatever the command (Claude Code: read-only
  // commands are confined to the working directory and additionalDirectories).
  for (const path of new Set(part.readPaths)) {
    if (!readIsOutside(path, workdir, additional)) continue;
    const allow = readAllowed(rules, path, workdir);
    if (allow) settledBy.push(`reading ${path} allowed by ${describeRule(allow)}`);
    else needs.push({ kind: 'outside_read', part: part.text, path });
  }
  for (const target of part.redirectTargets) {
    const allow = editAllowed(rules, target, workdir);
    if (allow) settledBy.push(`writing ${target} allowed by ${describeRule(allow)}`);
    else needs.push({ kind: 'redirect', part: part.text, target });
  }
  if (needs.length > 0) return { ...base, status: 'pending', reason: describeNeeds(needs), needs };
  return { ...base, status: 'allow', reason: settledBy.join('; ') || 'nothing to run', ...(decidedBy ? { decidedBy } : {}), needs };
}

/** Words for what needs approval, naming the part of a compound command. */
export function describeNeeds(needs: readonly Need[]): string {
  return needs
    .map((n) => {
      switch (n.kind) {
        case 'command':
          return `"${n.part}" is not allowed by any rule`;
        case 'redirect':
          return `"${n.part}" writes to ${n.target}`;
        case 'hidden_shell':
          return `"${n.part}" runs a command hidden in a string`;
        case 'parse':
          return `the command could not be parsed (${n.error})`;
        case 'tool':
          return `no rule covers ${n.part}`;
        case 'outside_read':
          return `"${n.part}" reads ${n.path}, outside the working directory`;
      }
    })
    .join('; ');
}

/**
 * Claude Code does not honour `Write(...)` rules (`Edit(...)` rules govern writes): an allow of
 * `Write(src/**)` still asks there, so here it grants nothing either. Write denies and asks still
 * count — stricter, and the settings editor warns about every Write rule.
 */
function honoured(r: SourcedRule): boolean {
  return !(r.behavior === 'allow' && r.rule.kind === 'tool' && r.rule.tool === 'Write');
}

/** The rules stage for one call. */
export function evaluateRules(facts: CallFacts, allRules: readonly SourcedRule[], workdir: string, additionalDirectories: readonly string[] = []): RulesVerdict {
  const rules = allRules.every(honoured) ? allRules : allRules.filter(honoured);
  if (facts.kind !== 'bash') {
    for (const behavior of ['deny', 'ask', 'allow'] as const) {
      const r = firstMatch(rules, behavior, (x) => matchesCall(x, facts, workdir));
      if (r) {
        const what = behavior === 'deny' ? 'denied by' : behavior === 'ask' ? 'approval required by' : 'allowed by';
        return { decision: behavior, reason: `${what} ${describeRule(r)}`, decidedBy: ruleBy(r), needs: [] };
      }
    }
    const needs: Need[] = [{ kind: 'tool', part: facts.summary ? `${facts.tool} ${facts.summary}` : facts.tool }];
    return { decision: 'passthrough', reason: 'no rule matched', needs };
  }

  // Patterns over the whole command (seed 003's regex tiers, e.g. "curl.*\| sh") span parts.
  for (const behavior of ['deny', 'ask'] as const) {
    const r = rules.find((x) => x.behavior === behavior && x.rule.kind === 'regex' && regexRuleMatches(x, 'bash', facts.command));
    if (r) {
      const what = behavior === 'deny' ? 'denied by' : 'approval required by';
      return { decision: behavior, reason: `${what} ${describeRule(r)}`, decidedBy: ruleBy(r), needs: [] };
    }
  }
  if (!facts.analysis.ok) {
    const bare = firstMatch(rules, 'deny', (r) => r.rule.kind === 'tool' && r.rule.specifier === undefined && ruleNamesTool(r.rule.tool, 'bash'));
    if (bare) return { decision: 'deny', reason: `denied by ${describeRule(bare)}`, decidedBy: ruleBy(bare), needs: [] };
    // What the parser saw before it gave up still meets deny and ask rules: failing closed asks, never softens a deny.
    for (const part of facts.analysis.parts ?? []) {
      const v = judgePart(part, rules, workdir, additionalDirectories);
      if (v.status === 'deny') return { decision: 'deny', reason: `"${v.text}" is ${v.reason}`, ...(v.decidedBy ? { decidedBy: v.decidedBy } : {}), needs: [] };
    }
    const need: Need = { kind: 'parse', part: facts.command, error: facts.analysis.error };
    return { decision: 'ask', reason: describeNeeds([need]), decidedBy: { kind: 'default', text: 'unparseable command' }, needs: [need] };
  }
  const parts = facts.analysis.parts.map((p) => judgePart(p, rules, workdir, additionalDirectories));
  const denied = parts.find((p) => p.status === 'deny');
  if (denied) return { decision: 'deny', reason: `"${denied.text}" is ${denied.reason}`, ...(denied.decidedBy ? { decidedBy: denied.decidedBy } : {}), parts, needs: [] };
  const asked = parts.find((p) => p.status === 'ask');
  if (asked) return { decision: 'ask', reason: `"${asked.text}": ${asked.reason}`, ...(asked.decidedBy ? { decidedBy: asked.decidedBy } : {}), parts, needs: [] };
  const needs = parts.flatMap((p) => p.needs);
  if (needs.length > 0) return { decision: 'passthrough', reason: describeNeeds(needs), parts, needs };
  const byRule = parts.map((p) => p.decidedBy).filter((d): d is DecidedBy => d?.kind === 'rule');
  const decidedBy: DecidedBy =
    byRule.length > 0
      ? { kind: 'rule', text: [...new Set(byRule.map((d) => d.text))].join(', ') }
      : { kind: 'readonly', text: [...new Set(parts.map((p) => p.decidedBy?.text).filter(Boolean))].join(', ') || 'no command' };
  return { decision: 'allow', reason: parts.map((p) => `"${p.text}": ${p.reason}`).join('; '), decidedBy, parts, needs: [] };
}

/**
 * Whether a rule names this call — as a deny of it would: for bash, any part of the command
 * (`Bash(git *)` names `npm test && git push`; a `Read(.env)` names `cat .env`). Used by hook
 * handlers' `if` conditions, which are written in permission-rule syntax.
 */
export function ruleNamesCall(rule: SourcedRule['rule'], facts: CallFacts, workdir: string): boolean {
  const r: SourcedRule = { behavior: 'deny', source: 'hook-if', rule };
  if (facts.kind === 'bash') return facts.analysis.ok && facts.analysis.parts.some((p) => matchesPart(r, p, workdir));
  return matchesCall(r, facts, workdir);
}
