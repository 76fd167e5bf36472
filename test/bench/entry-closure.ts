/**
 * What a build's first screen must fetch: the entry chunk of `index.html` and every chunk it imports
 * statically (dynamic `import()` targets are not followed), with its size and which heavy packages
 * it carries. The bundle is minified, so a package is recognised by a message only it contains;
 * the first-screen bench prints the list (issue 23 §4: RE2, YAML, zod, the loop and MCP load on
 * demand, not with the first screen).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** A string each package's code carries (checked against a build: found in that package's chunk only). */
export const HEAVY_MARKERS: Record<string, string> = {
  zod: 'ZodType',
  yaml: 'Implicit keys need to be on a single line',
  re2js: 'invalid nested repetition operator',
  'agent loop': 'max_tokens recovery budget spent',
  'MCP SDK': 'jsonrpc',
};

/**
 * `nonAscii`: bytes above 0x7f in the closure. A script with even one is decoded as UTF-8 into a
 * two-byte string, which the browser decodes and V8 scans more slowly than one-byte text (a trace of
 * the sandbox worker: 66 ms of `TextResourceDecoder::Decode` for 12 such bytes in 0.7 MB).
 */
export type EntryClosure = { files: string[]; raw: number; gzip: number; heavy: string[]; nonAscii: number };

/** The entry chunk and its static imports (what the browser must fetch before the first paint). */
export function entryClosure(dist: string): EntryClosure {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/?([^"]+)"/.exec(html)?.[1];
  if (!entry) throw new Error(`${dist}/index.html has no module script`);
  return chunkClosure(dist, entry);
}

/**
 * The sandbox worker's script and its static imports: what the worker fetches and compiles before
 * its sandbox can answer (a Step at a cold page's usable waits for it). Null for a build without one.
 */
export function sandboxWorkerClosure(dist: string): EntryClosure | null {
  const file = readdirSync(join(dist, 'assets')).find((f) => /^sandbox-worker-[\w-]+\.js$/.test(f));
  return file ? chunkClosure(dist, `assets/${file}`) : null;
}

/** `entry` (a path under `dist`) and every chunk it imports statically, transitively. */
export function chunkClosure(dist: string, entry: string): EntryClosure {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    // Static imports of sibling chunks (`import{a as b}from"./x.js"`); dynamic `import("./x.js")` is not matched.
    for (const m of code.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w${},\s*]+from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
      const path = join(dirname(file), m[1]!);
      if (existsSync(join(dist, path))) queue.push(path);
    }
  }
  let raw = 0;
  let gzip = 0;
  let nonAscii = 0;
  const heavy = new Set<string>();
  for (const f of seen) {
    const bytes = readFileSync(join(dist, f));
    raw += bytes.length;
    for (const b of bytes) if (b > 0x7f) nonAscii++;
    gzip += gzipSync(bytes).length;
    const text = bytes.toString('utf8');
    for (const [name, marker] of Object.entries(HEAVY_MARKERS)) if (text.includes(marker)) heavy.add(name);
  }
  return { files: [...seen], raw, gzip, heavy: [...heavy], nonAscii };
}
