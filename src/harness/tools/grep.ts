/**
 * `grep`: search file contents with a JavaScript regular expression, over the sandbox fs.
 */
import { z } from 'zod';
import { basename, relativeTo } from '../util/paths.ts';
import { checkSearch } from '../permissions/tool-checks.ts';
import { buildTool, type ToolContext } from './tool.ts';
import { absPath, cutLine, fail, looksBinary, safeStat, splitLines } from './shared.ts';
import { compileGlob } from './glob-match.ts';
import { walkFiles } from './walk.ts';

/** Files bigger than this are skipped: a sandbox search should not stall on a data dump. */
const MAX_FILE_CHARS = 5_000_000;
/** Matched lines in `content` mode are cut to this many characters (minified code). */
const MAX_MATCH_LINE_CHARS = 500;

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('A JavaScript regular expression, e.g. "log.*Error" or "function\\s+\\w+".'),
  path: z.string().optional().describe('File or directory to search (default: the working directory).'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.{js,jsx}".'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('"files_with_matches" (default) lists files; "content" shows matching lines; "count" gives counts per file.'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers (content mode; default true).'),
  '-A': z.number().int().min(0).optional().describe('Lines to show after each match (content mode).'),
  '-B': z.number().int().min(0).optional().describe('Lines to show before each match (content mode).'),
  '-C': z.number().int().min(0).optional().describe('Lines to show before and after each match (content mode).'),
  head_limit: z.number().int().min(1).optional().describe('Keep only the first N output lines or files.'),
  multiline: z.boolean().optional().describe('Let the pattern span lines ("." also matches newlines). Default false.'),
});

export type GrepInput = z.infer<typeof inputSchema>;

const description = `Searches file contents with a regular expression (JavaScript syntax).

- Use this for every content search; do not run grep or rg through bash.
- pattern is a JavaScript regex: escape literal special characters, e.g. "interface\\{\\}" or "foo\\(". Set -i for a case-insensitive search.
- Narrow the files with path (a file or directory) and/or glob ("*.ts", "src/**/*.{js,jsx}"; a glob without "/" matches file names at any depth).
- output_mode: "files_with_matches" (default) lists the files, most recently modified first; "content" shows matching lines as path:line:text (with -A/-B/-C context lines, -n for numbers, default on); "count" gives matches per file.
- By default a pattern matches within one line; set multiline to true to match across lines.
- Binary files, node_modules and .git are skipped. head_limit keeps the first N lines or files.`;

export type CompiledPattern = { ok: true; re: RegExp } | { ok: false; message: string };

export function compilePattern(input: GrepInput): CompiledPattern {
  const flags = 'g' + (input['-i'] ? 'i' : '') + (input.multiline ? 'ms' : '');
  try {
    return { ok: true, re: new RegExp(input.pattern, flags) };
  } catch (e) {
    const why = (e as Error).message.replace(/^Invalid regular expression: /, '');
    return {
      ok: false,
      message: `Invalid regular expression ${JSON.stringify(input.pattern)}: ${why}. The pattern is a JavaScript regex: escape special characters such as ( ) [ ] { } . * + ? | with a backslash to match them literally.`,
    };
  }
}

type FileHit = { path: string; lines: number[]; count: number };

/** 1-based numbers of the lines that contain a match, and the number of matches. */
function searchContent(content: string, re: RegExp, multiline: boolean): { lines: number[]; count: number } {
  if (!multiline) {
    const lines: number[] = [];
    let count = 0;
    splitLines(content).forEach((line, i) => {
      re.lastIndex = 0;
      const n = [...line.matchAll(re)].length;
      if (n > 0) {
        lines.push(i + 1);
        count += n;
      }
    });
    return { lines, count };
  }
  const starts = [0];
  for (let i = 0; i < content.length; i++) if (content.charCodeAt(i) === 10) starts.push(i + 1);
  const lineAt = (idx: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= idx) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const lines = new Set<number>();
  let count = 0;
  re.lastIndex = 0;
  for (const m of content.matchAll(re)) {
    count++;
    const first = lineAt(m.index);
    const last = lineAt(m.index + Math.max(0, m[0].length - 1));
    for (let n = first; n <= last; n++) lines.add(n);
  }
  return { lines: [...lines].sort((a, b) => a - b), count };
}

/** `path:n:text` for matches and `path-n-text` for context, `--` between separate groups. */
function contentLines(rel: string, content: string, hit: FileHit, before: number, after: number, numbers: boolean): string[] {
  const all = splitLines(content);
  const matched = new Set(hit.lines);
  const shown = new Set<number>();
  for (const n of hit.lines) {
    for (let k = Math.max(1, n - before); k <= Math.min(all.length, n + after); k++) shown.add(k);
  }
  const out: string[] = [];
  let prev = 0;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (prev !== 0 && n > prev + 1 && (before > 0 || after > 0)) out.push('--');
    const sep = matched.has(n) ? ':' : '-';
    const text = cutLine(all[n - 1] ?? '', MAX_MATCH_LINE_CHARS);
    out.push(numbers ? `${rel}${sep}${n}${sep}${text}` : `${rel}${sep}${text}`);
    prev = n;
  }
  return out;
}

async function filesToSearch(ctx: ToolContext, root: string, glob: string | undefined): Promise<{ files: string[]; note?: string } | { error: string }> {
  const { stat, error } = await safeStat(ctx, root);
  if (error) return { error };
  if (stat === null) return { error: `Path does not exist: ${root}. Leave out path to search the working directory, or find the right one with glob.` };
  if (stat.kind === 'file') return { files: [root] };
  const walk = await walkFiles(ctx.sandbox.fs, root, { signal: ctx.signal });
  // Files a Read deny covers are not searched at all: not their lines, names or counts.
  let files = ctx.excludeFromSearch ? walk.files.filter((f) => !ctx.excludeFromSearch!(f)) : walk.files;
  if (glob !== undefined) {
    const g = glob.replace(/^\.\//, '');
    let match: (p: string) => boolean;
    try {
      match = compileGlob(g);
    } catch (e) {
      return { error: `Could not understand the glob ${JSON.stringify(glob)}: ${(e as Error).message}.` };
    }
    // As in ripgrep, a glob without a slash is matched against the file name at any depth.
    files = files.filter((f) => (g.includes('/') ? match(relativeTo(root, f)) : match(basename(f))));
  }
  return { files, note: walk.capped ? '(The search stopped early: the directory is very large. Narrow path or glob.)' : undefined };
}

export function grepTool() {
  return buildTool<GrepInput>({
    name: 'grep',
    description,
    inputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isDestructive: () => false,
    checkPermissions: (input, ctx) => checkSearch(input.path ?? '.', ctx),
    async validateInput(input) {
      const c = compilePattern(input);
      return c.ok ? { ok: true } : c;
    },
    async call(input, ctx) {
      const compiled = compilePattern(input);
      if (!compiled.ok) return fail(compiled.message);
      const re = compiled.re;
      const mode = input.output_mode ?? 'files_with_matches';
      const root = absPath(ctx, input.path ?? '.');
      const listed = await filesToSearch(ctx, root, input.glob);
      if ('error' in listed) return fail(listed.error);

      const hits: (FileHit & { mtime: number; content: string })[] = [];
      let skippedBinary = 0;
      for (const path of listed.files) {
        if (ctx.signal.aborted) return fail('The search was stopped by the user.');
        let content: string;
        try {
          content = await ctx.sandbox.fs.readFile(path);
        } catch {
          continue; // vanished or unreadable since the walk: nothing to report about it
        }
        if (content.length > MAX_FILE_CHARS || looksBinary(content)) {
          skippedBinary++;
          continue;
        }
        const found = searchContent(content, re, input.multiline ?? false);
        if (found.count === 0) continue;
        const mtime = mode === 'files_with_matches' ? ((await safeStat(ctx, path)).stat?.mtimeMs ?? 0) : 0;
        hits.push({ path, ...found, mtime, content: mode === 'content' ? content : '' });
      }

      const notes: string[] = [];
      if (listed.note) notes.push(listed.note);
      // Only worth saying when it might explain a miss.
      if (skippedBinary > 0 && hits.length === 0) {
        notes.push(`(${skippedBinary} binary or very large file${skippedBinary === 1 ? ' was' : 's were'} skipped.)`);
      }
      if (hits.length === 0) {
        const where = root;
        const scope = input.glob ? ` (files matching ${JSON.stringify(input.glob)})` : '';
        return { content: [`No matches for ${JSON.stringify(input.pattern)} in ${where}${scope}.`, ...notes].join('\n') };
      }

      let out: string[];
      let summary: string;
      if (mode === 'files_with_matches') {
        hits.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
        out = hits.map((h) => relativeTo(ctx.cwd, h.path));
        summary = `Found ${hits.length} file${hits.length === 1 ? '' : 's'}`;
      } else if (mode === 'count') {
        out = hits.map((h) => `${relativeTo(ctx.cwd, h.path)}:${h.count}`);
        const total = hits.reduce((s, h) => s + h.count, 0);
        summary = `Found ${total} match${total === 1 ? '' : 'es'} in ${hits.length} file${hits.length === 1 ? '' : 's'}`;
      } else {
        const before = input['-B'] ?? input['-C'] ?? 0;
        const after = input['-A'] ?? input['-C'] ?? 0;
        const numbers = input['-n'] ?? true;
        out = [];
        for (const h of hits) {
          if (out.length > 0 && (before > 0 || after > 0)) out.push('--');
          out.push(...contentLines(relativeTo(ctx.cwd, h.path), h.content, h, before, after, numbers));
        }
        summary = '';
      }
      if (input.head_limit !== undefined && out.length > input.head_limit) {
        notes.push(`(Showing the first ${input.head_limit} of ${out.length} lines; raise head_limit or narrow the search for more.)`);
        out = out.slice(0, input.head_limit);
      }
      return { content: [summary, ...out, ...notes].filter((l) => l !== '').join('\n') };
    },
  });
}
