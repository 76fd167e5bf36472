/**
 * `git diff` (working tree vs index), `git diff --cached` / `--staged` (index vs HEAD) and
 * `git diff <commit>` (working tree vs a commit), as unified diffs with git's headers.
 * isomorphic-git has no diff, so hunks come from the `diff` package (jsdiff). Also
 * `--stat` and `--name-only` / `--name-status`.
 */
import { structuredPatch } from 'diff';
import type { GitResult, RepoCtx } from './context.ts';
import { fatal, headOid, ok, repoPath, usage } from './context.ts';
import { statusRows } from './status.ts';

export type Side = { oid: string | null; text: string | null };

const ZERO = '0000000';

/** Blob oids of the index (STAGE) or of a commit's tree, by repo path. */
export async function treeOids(ctx: RepoCtx, which: 'stage' | string): Promise<Map<string, string>> {
  const { git } = ctx;
  const tree = which === 'stage' ? git.STAGE() : git.TREE({ ref: which });
  const pairs = (await git.walk({
    fs: ctx.fs,
    dir: ctx.dir,
    trees: [tree],
    map: async (filepath, [entry]) => {
      if (!entry || filepath === '.') return undefined;
      if ((await entry.type()) !== 'blob') return undefined;
      return [filepath, await entry.oid()];
    },
  })) as unknown;
  const out = new Map<string, string>();
  const visit = (v: unknown) => {
    if (!Array.isArray(v)) return;
    if (v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') out.set(v[0], v[1]);
    else v.forEach(visit);
  };
  visit(pairs);
  return out;
}

async function blobText(ctx: RepoCtx, oid: string): Promise<string> {
  const { blob } = await ctx.git.readBlob({ fs: ctx.fs, dir: ctx.dir, oid });
  return new TextDecoder().decode(blob);
}

async function workSide(ctx: RepoCtx, path: string): Promise<Side> {
  try {
    const text = await ctx.raw.readFile(`${ctx.dir}/${path}`);
    const oid = await ctx.git.hashBlob({ object: text });
    return { oid: oid.oid, text };
  } catch {
    return { oid: null, text: null };
  }
}

/** A hunk range as git writes it: `5` for one line, `4,0` (the line before) for none. */
function range(start: number, lines: number): string {
  return lines === 1 ? `${start}` : `${lines === 0 ? Math.max(0, start - 1) : start},${lines}`;
}

/** One file's diff in git's format ('' when both sides are equal). */
export function fileDiff(path: string, a: Side, b: Side): string {
  if (a.oid === b.oid && a.text === b.text) return '';
  const head = [`diff --git a/${path} b/${path}`];
  if (a.text === null) head.push('new file mode 100644', `index ${ZERO}..${b.oid!.slice(0, 7)}`);
  else if (b.text === null) head.push('deleted file mode 100644', `index ${a.oid!.slice(0, 7)}..${ZERO}`);
  else head.push(`index ${a.oid!.slice(0, 7)}..${b.oid!.slice(0, 7)} 100644`);
  const patch = structuredPatch(`a/${path}`, `b/${path}`, a.text ?? '', b.text ?? '', '', '', { context: 3 });
  if (patch.hunks.length === 0) return `${head.join('\n')}\n`;
  head.push(a.text === null ? '--- /dev/null' : `--- a/${path}`, b.text === null ? '+++ /dev/null' : `+++ b/${path}`);
  for (const h of patch.hunks) {
    head.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`);
    head.push(...h.lines);
  }
  return `${head.join('\n')}\n`;
}

function countLines(d: string): { add: number; del: number } {
  let add = 0;
  let del = 0;
  for (const l of d.split('\n')) {
    if (l.startsWith('+') && !l.startsWith('+++')) add++;
    else if (l.startsWith('-') && !l.startsWith('---')) del++;
  }
  return { add, del };
}

/** ` 2 files changed, 3 insertions(+), 1 deletion(-)` as git prints it. */
export function summaryLine(files: number, add: number, del: number): string {
  const parts = [` ${files} file${files === 1 ? '' : 's'} changed`];
  if (add || !del) parts.push(`${add} insertion${add === 1 ? '' : 's'}(+)`);
  if (del) parts.push(`${del} deletion${del === 1 ? '' : 's'}(-)`);
  return parts.join(', ');
}

export function statText(diffs: { path: string; text: string }[]): string {
  if (diffs.length === 0) return '';
  const counts = diffs.map((d) => ({ path: d.path, ...countLines(d.text) }));
  const width = Math.max(...counts.map((c) => c.path.length));
  const lines = counts.map((c) => ` ${c.path.padEnd(width)} | ${String(c.add + c.del).padStart(2)} ${'+'.repeat(Math.min(c.add, 40))}${'-'.repeat(Math.min(c.del, 40))}`);
  const add = counts.reduce((n, c) => n + c.add, 0);
  const del = counts.reduce((n, c) => n + c.del, 0);
  return `${lines.join('\n')}\n${summaryLine(counts.length, add, del)}\n`;
}

/** Diffs between two sides for every path in `paths`, sorted. */
export async function diffSides(
  paths: Iterable<string>,
  left: (p: string) => Promise<Side>,
  right: (p: string) => Promise<Side>,
): Promise<{ path: string; text: string; a: Side; b: Side }[]> {
  const out: { path: string; text: string; a: Side; b: Side }[] = [];
  for (const path of [...new Set(paths)].sort()) {
    const a = await left(path);
    const b = await right(path);
    const text = fileDiff(path, a, b);
    if (text) out.push({ path, text, a, b });
  }
  return out;
}

export async function gitDiff(ctx: RepoCtx, args: string[]): Promise<GitResult> {
  let cached = false;
  let mode: 'patch' | 'stat' | 'name-only' | 'name-status' = 'patch';
  let commit: string | null = null;
  const specs: string[] = [];
  let afterDashes = false;
  for (const a of args) {
    if (afterDashes) specs.push(repoPath(ctx, a) ?? a);
    else if (a === '--') afterDashes = true;
    else if (a === '--cached' || a === '--staged') cached = true;
    else if (a === '--stat') mode = 'stat';
    else if (a === '--name-only') mode = 'name-only';
    else if (a === '--name-status') mode = 'name-status';
    else if (a === '--no-color' || a === '--no-ext-diff' || a === '-p' || a === '--patch') continue;
    else if (a.startsWith('-')) return usage(`unknown option \`${a}' for git diff in the sandbox (supported: --cached, --staged, --stat, --name-only, --name-status, <commit>, -- <paths>)`);
    else if (commit === null && !(await ctx.raw.exists(`${ctx.cwd}/${a}`)).valueOf()) commit = a;
    else specs.push(repoPath(ctx, a) ?? a);
  }
  const { git } = ctx;
  const stage = await treeOids(ctx, 'stage');
  const fromMap = async (m: Map<string, string>, p: string): Promise<Side> => {
    const oid = m.get(p);
    return oid ? { oid, text: await blobText(ctx, oid) } : { oid: null, text: null };
  };
  let base: Map<string, string> | null = null;
  if (cached || commit) {
    let oid: string | null;
    try {
      oid = commit ? await git.expandOid({ fs: ctx.fs, dir: ctx.dir, oid: commit }).catch(() => git.resolveRef({ fs: ctx.fs, dir: ctx.dir, ref: commit! })) : await headOid(ctx);
    } catch {
      return fatal(`ambiguous argument '${commit}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`);
    }
    base = oid ? await treeOids(ctx, oid) : new Map();
  }
  const inScope = (p: string) => specs.length === 0 || specs.some((s) => s === '.' || p === s || p.startsWith(`${s}/`));
  let diffs;
  if (cached) {
    const paths = [...base!.keys(), ...stage.keys()].filter(inScope);
    diffs = await diffSides(paths, (p) => fromMap(base!, p), (p) => fromMap(stage, p));
  } else {
    const rows = await statusRows(ctx);
    // Untracked files are not in a plain `git diff`; tracked ones compare with the index or commit.
    const against = base ?? stage;
    const paths = rows.filter((r) => against.has(r[0]) || stage.has(r[0])).map((r) => r[0]).filter(inScope);
    diffs = await diffSides(paths, (p) => fromMap(against, p), (p) => workSide(ctx, p));
  }
  if (mode === 'name-only') return ok(diffs.map((d) => `${d.path}\n`).join(''));
  if (mode === 'name-status') return ok(diffs.map((d) => `${d.a.text === null ? 'A' : d.b.text === null ? 'D' : 'M'}\t${d.path}\n`).join(''));
  if (mode === 'stat') return ok(statText(diffs));
  return ok(diffs.map((d) => d.text).join(''));
}
