/**
 * `git commit`, `git log` and `git show`: commit with git's one-line summary and stat, log in
 * the default medium format or `--oneline`, show a commit with its patch against the parent.
 */
import type { GitResult, RepoCtx } from './context.ts';
import { author, currentBranch, fatal, headOid, ok, usage } from './context.ts';
import { diffSides, statText, summaryLine, treeOids } from './diff.ts';
import type { Side } from './diff.ts';
import { classify, statusRows } from './status.ts';
import { gitAdd } from './staging.ts';

type CommitInfo = Awaited<ReturnType<RepoCtx['git']['log']>>[number];

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** git's default date format: `Tue Dec 1 19:00:00 2026 +0000`, in the commit's own zone. */
export function gitDate(seconds: number, offsetMinutes: number): string {
  // isomorphic-git stores the offset with the sign of Date#getTimezoneOffset (west positive).
  const local = new Date((seconds - offsetMinutes * 60) * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const off = -offsetMinutes;
  const zone = `${off >= 0 ? '+' : '-'}${pad(Math.floor(Math.abs(off) / 60))}${pad(Math.abs(off) % 60)}`;
  return `${DAYS[local.getUTCDay()]} ${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${local.getUTCFullYear()} ${zone}`;
}

function medium(c: CommitInfo): string {
  const a = c.commit.author;
  const body = c.commit.message.replace(/\n+$/, '').split('\n').map((l) => (l ? `    ${l}` : '')).join('\n');
  return `commit ${c.oid}\nAuthor: ${a.name} <${a.email}>\nDate:   ${gitDate(a.timestamp, a.timezoneOffset)}\n\n${body}\n`;
}

export async function gitCommit(ctx: RepoCtx, rawArgs: string[]): Promise<GitResult> {
  // Bundled short flags, as git reads them: `-qam msg` is `-q -a -m msg`.
  const args = rawArgs.flatMap((a) => (/^-[aqn]+m?$/.test(a) && a.length > 2 ? [...a.slice(1)].map((f) => `-${f}`) : [a]));
  const messages: string[] = [];
  let all = false;
  let allowEmpty = false;
  let amend = false;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-m' || a === '--message') {
      const m = args[++i];
      if (m === undefined) return usage(`switch \`m' requires a value`);
      messages.push(m);
    } else if (a.startsWith('--message=')) messages.push(a.slice(10));
    else if (a.startsWith('-m') && a.length > 2) messages.push(a.slice(2));
    else if (a === '-a' || a === '--all') all = true;
    else if (a === '-am') {
      all = true;
      const m = args[++i];
      if (m === undefined) return usage(`switch \`m' requires a value`);
      messages.push(m);
    } else if (a === '--allow-empty') allowEmpty = true;
    else if (a === '--amend') amend = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--no-verify' || a === '-n' || a === '--no-edit') continue;
    else return usage(`unknown option \`${a}' for git commit in the sandbox (supported: -m <msg>, -a, --amend, --allow-empty, --no-edit)`);
  }
  // A merge in progress (MERGE_HEAD): this commit concludes it, with every merged head as a parent.
  const merging = await mergeHeads(ctx);
  if (messages.length === 0 && merging.length) messages.push((await ctx.raw.readFile(`${ctx.gitdir}/MERGE_MSG`).catch(() => `Merge ${merging.join(', ')}`)).replace(/\n+$/, ''));
  if (messages.length === 0) {
    return { stdout: '', stderr: 'error: the sandbox has no editor for a commit message; pass it with -m "<message>"\n', exitCode: 1 };
  }
  if (all) await gitAdd(ctx, ['-u']);
  const before = await headOid(ctx);
  const rows = await statusRows(ctx);
  const staged = rows.flatMap(classify).filter((s) => s.index !== ' ' && s.index !== '?');
  if (staged.length === 0 && !allowEmpty && !amend && merging.length === 0) {
    const untracked = rows.flatMap(classify).some((s) => s.index === '?');
    const unstaged = rows.flatMap(classify).some((s) => s.worktree !== ' ' && s.worktree !== '?');
    const branch = (await currentBranch(ctx)) ?? 'HEAD';
    const tail = unstaged
      ? 'no changes added to commit (use "git add" and/or "git commit -a")'
      : untracked
        ? 'nothing added to commit but untracked files present (use "git add" to track)'
        : 'nothing to commit, working tree clean';
    return { stdout: `On branch ${branch}\n${tail}\n`, stderr: '', exitCode: 1 };
  }
  const who = await author(ctx);
  const message = `${messages.join('\n\n')}\n`;
  const parents = merging.length && before && !amend ? { parent: [before, ...merging] } : {};
  const oid = await ctx.git.commit({ fs: ctx.fs, dir: ctx.dir, message, author: who, committer: who, amend, ...parents });
  if (merging.length) for (const f of ['MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE']) await ctx.raw.rm(`${ctx.gitdir}/${f}`, { force: true });
  if (quiet) return ok();
  const branch = (await currentBranch(ctx)) ?? 'detached HEAD';
  const parent = amend ? ((await ctx.git.readCommit({ fs: ctx.fs, dir: ctx.dir, oid })).commit.parent[0] ?? null) : before;
  const diffs = await commitDiffs(ctx, parent, oid);
  const add = diffs.reduce((n, d) => n + d.text.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length, 0);
  const del = diffs.reduce((n, d) => n + d.text.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---')).length, 0);
  const lines = [`[${branch}${parent === null ? ' (root-commit)' : ''} ${oid.slice(0, 7)}] ${messages[0]!.split('\n')[0]}`];
  lines.push(summaryLine(diffs.length, add, del));
  for (const d of diffs) {
    if (d.a.text === null) lines.push(` create mode 100644 ${d.path}`);
    else if (d.b.text === null) lines.push(` delete mode 100644 ${d.path}`);
  }
  return ok(`${lines.join('\n')}\n`);
}

/** The commits a merge in progress brings in (`.git/MERGE_HEAD`, one per line), or none. */
export async function mergeHeads(ctx: RepoCtx): Promise<string[]> {
  const text = await ctx.raw.readFile(`${ctx.gitdir}/MERGE_HEAD`).catch(() => '');
  return text.split('\n').map((l) => l.trim()).filter((l) => /^[0-9a-f]{40}$/.test(l));
}

export async function commitDiffs(ctx: RepoCtx, parent: string | null, oid: string) {
  const a = parent ? await treeOids(ctx, parent) : new Map<string, string>();
  const b = await treeOids(ctx, oid);
  const side = (m: Map<string, string>) => async (p: string): Promise<Side> => {
    const o = m.get(p);
    if (!o) return { oid: null, text: null };
    const { blob } = await ctx.git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid: o });
    return { oid: o, text: new TextDecoder().decode(blob) };
  };
  return diffSides([...a.keys(), ...b.keys()], side(a), side(b));
}

/**
 * Each commit once, and never before a commit that has it as a parent (what git's log shows).
 * isomorphic-git walks every parent of a merge but can list a shared ancestor twice, and orders
 * commits made in the same second arbitrarily.
 */
function topoOrder(entries: CommitInfo[]): CommitInfo[] {
  const unique = [...new Map(entries.map((c) => [c.oid, c])).values()];
  const waiting = new Map<string, number>(unique.map((c) => [c.oid, 0]));
  for (const c of unique) for (const p of c.commit.parent) if (waiting.has(p)) waiting.set(p, waiting.get(p)! + 1);
  const out: CommitInfo[] = [];
  const left = [...unique];
  while (left.length) {
    const i = left.findIndex((c) => waiting.get(c.oid) === 0);
    const [next] = left.splice(i < 0 ? 0 : i, 1);
    out.push(next!);
    for (const p of next!.commit.parent) if (waiting.has(p)) waiting.set(p, waiting.get(p)! - 1);
  }
  return out;
}

async function logEntries(ctx: RepoCtx, ref: string, depth?: number): Promise<CommitInfo[] | GitResult> {
  if (!(await headOid(ctx)) && ref === 'HEAD') {
    return fatal(`your current branch '${(await currentBranch(ctx)) ?? 'main'}' does not have any commits yet`);
  }
  try {
    const all = await ctx.git.log({ fs: ctx.fs, dir: ctx.dir, ref });
    const ordered = topoOrder(all);
    return depth !== undefined ? ordered.slice(0, depth) : ordered;
  } catch {
    return fatal(`ambiguous argument '${ref}': unknown revision or path not in the working tree.`);
  }
}

export async function gitLog(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  let oneline = false;
  let depth: number | undefined;
  let ref = 'HEAD';
  let stat = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--oneline' || a === '--pretty=oneline' || a === '--format=oneline') oneline = true;
    else if (a === '-n' || a === '--max-count') depth = Number(args[++i]);
    else if (/^-n\d+$/.test(a)) depth = Number(a.slice(2));
    else if (/^-\d+$/.test(a)) depth = Number(a.slice(1));
    else if (a.startsWith('--max-count=')) depth = Number(a.slice(12));
    else if (a === '--stat') stat = true;
    else if (a === '--no-decorate' || a === '--decorate' || a === '--no-color' || a === '--') continue;
    else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git log in the sandbox (supported: --oneline, -n <N>, -<N>, --stat, <ref>)`);
    else ref = a;
  }
  if (depth !== undefined && !(depth > 0)) return ok('');
  const entries = await logEntries(ctx, ref, depth);
  if (!Array.isArray(entries)) return entries;
  const out: string[] = [];
  for (const c of entries) {
    if (oneline) out.push(`${c.oid.slice(0, 7)} ${c.commit.message.split('\n')[0]}\n`);
    else {
      let text = medium(c);
      if (stat) text += `\n${statText(await commitDiffs(ctx, c.commit.parent[0] ?? null, c.oid))}`;
      out.push(text);
    }
  }
  return ok(oneline ? out.join('') : out.join('\n'));
}

export async function gitShow(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  const statOnly = args.includes('--stat');
  const refs = args.filter((a) => !a.startsWith('-'));
  const bad = args.find((a) => a.startsWith('-') && a !== '--stat' && a !== '--no-color');
  if (bad) return usage(`unknown option \`${bad}' for git show in the sandbox (supported: <commit>, --stat)`);
  const entries = await logEntries(ctx, refs[0] ?? 'HEAD', 1);
  if (!Array.isArray(entries)) return entries;
  const c = entries[0]!;
  const diffs = await commitDiffs(ctx, c.commit.parent[0] ?? null, c.oid);
  return ok(`${medium(c)}\n${statOnly ? statText(diffs) : diffs.map((d) => d.text).join('')}`);
}
