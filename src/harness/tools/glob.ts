/**
 * `glob`: files whose path matches a pattern, newest first.
 */
import { z } from 'zod';
import { relativeTo } from '../util/paths.ts';
import { checkSearch } from '../permissions/tool-checks.ts';
import { buildTool } from './tool.ts';
import { absPath, fail, safeStat } from './shared.ts';
import { compileGlob, globSearchRoot, splitGlobBase } from './glob-match.ts';
import { SKIPPED_DIRS, walkFiles } from './walk.ts';

export const GLOB_MAX_RESULTS = 100;

const inputSchema = z.strictObject({
  pattern: z.string().min(1).describe('The glob to match, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z
    .string()
    .optional()
    .describe('The directory to search in (default: the working directory). Leave it out rather than passing "." or null.'),
});

export type GlobInput = z.infer<typeof inputSchema>;

const description = `Finds files by name with a glob pattern, e.g. "**/*.js" or "src/**/*.{ts,svelte}".

- Patterns match paths relative to path (default: the working directory). * matches within one directory level, ** across any number of levels, ? one character, [abc] one of a set, {a,b} either alternative. "*.ts" matches only files directly in path; use "**/*.ts" to search every level.
- Returns matching file paths (relative to the working directory), most recently modified first, at most ${GLOB_MAX_RESULTS}.
- node_modules and .git are skipped unless the pattern names them.
- To search file contents use grep. For open-ended searches that may need several rounds, combine glob, grep and read.`;

export function globTool() {
  return buildTool<GlobInput>({
    name: 'glob',
    description,
    inputSchema,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isDestructive: () => false,
    checkPermissions: (input, ctx) => checkSearch(globSearchRoot(input), ctx),
    async call(input, ctx) {
      let base = absPath(ctx, input.path ?? '.');
      let pattern = input.pattern;
      if (pattern.startsWith('/')) {
        // An absolute pattern carries its own base directory.
        const split = splitGlobBase(pattern);
        base = split.base;
        pattern = split.pattern;
      }
      pattern = pattern.replace(/^\.\//, '');

      const { stat, error } = await safeStat(ctx, base);
      if (error) return fail(error);
      if (stat === null) return fail(`Directory does not exist: ${base}. Leave out path to search the working directory.`);
      if (stat.kind !== 'dir') return fail(`${base} is a file, not a directory. Give its directory as path, or read the file.`);

      let match: (p: string) => boolean;
      try {
        match = compileGlob(pattern);
      } catch (e) {
        return fail(`Could not understand the pattern ${JSON.stringify(input.pattern)}: ${(e as Error).message}.`);
      }
      const named = [...SKIPPED_DIRS].filter((d) => pattern.includes(d));
      const skipDirs = new Set([...SKIPPED_DIRS].filter((d) => !named.includes(d)));
      const walk = await walkFiles(ctx.sandbox.fs, base, { skipDirs, signal: ctx.signal });
      if (ctx.signal.aborted) return fail('The search was stopped by the user.');

      // Files a Read deny covers are not listed: their names do not reach the model either.
      const matched = walk.files.filter((f) => match(relativeTo(base, f)) && !ctx.excludeFromSearch?.(f));
      const withTimes = await Promise.all(
        matched.map(async (path) => {
          const s = await safeStat(ctx, path);
          return { path, mtime: s.stat?.mtimeMs ?? 0 };
        }),
      );
      // Newest first; equal times (common in a fresh sandbox) fall back to path order.
      withTimes.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

      const notes: string[] = [];
      if (walk.capped) notes.push('(The search stopped early: the directory is very large. Narrow path or pattern.)');
      if (withTimes.length === 0) {
        return { content: [`No files match ${JSON.stringify(input.pattern)} in ${base}.`, ...notes].join('\n') };
      }
      const shown = withTimes.slice(0, GLOB_MAX_RESULTS).map((f) => relativeTo(ctx.cwd, f.path));
      if (withTimes.length > GLOB_MAX_RESULTS) {
        notes.push(
          `(Showing the ${GLOB_MAX_RESULTS} most recently modified of ${withTimes.length} matches. Use a narrower pattern or path to see the others.)`,
        );
      }
      return { content: [...shown, ...notes].join('\n') };
    },
  });
}
