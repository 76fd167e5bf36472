/**
 * Where `require(x)` / `import x` lead, by Node's rules cut to what a sandbox project needs:
 * built-ins (with or without `node:`), relative and absolute files with the usual extensions,
 * directories through `package.json` `main` or `index.js`, and packages in `node_modules`
 * (`exports` "." / `main`). The module format follows the extension, then the nearest
 * `package.json` `type`, then the file's own syntax (as Node 22 does for ambiguous `.js`).
 *
 * Failures carry Node's codes and say what is missing: MODULE_NOT_FOUND (with a note that
 * packages cannot be installed offline), ERR_SANDBOX_UNSUPPORTED for built-ins the sandbox
 * does not have, and native addons.
 */
import { dirname, resolvePath } from '../../../harness/util/index.ts';
import type { SnapshotFs } from './snapshot-fs.ts';

export type ModuleFormat = 'cjs' | 'esm' | 'json';
export type ResolvedModule = { kind: 'builtin'; name: string } | { kind: 'file'; path: string; format: ModuleFormat };

/** Built-ins the guest implements (see guest/*.ts). */
export const SUPPORTED_BUILTINS = [
  'assert', 'assert/strict', 'events', 'fs', 'fs/promises', 'module', 'os', 'path', 'path/posix',
  'process', 'test', 'timers', 'timers/promises', 'url', 'util',
];

/** Built-ins that exist in Node but not here, with the reason we give. */
const UNSUPPORTED_BUILTINS: Record<string, string> = {
  http: 'the sandbox has no network', https: 'the sandbox has no network', http2: 'the sandbox has no network',
  net: 'the sandbox has no network', tls: 'the sandbox has no network', dgram: 'the sandbox has no network',
  dns: 'the sandbox has no network', child_process: 'the sandbox cannot start processes from JavaScript; run commands from the shell instead',
  cluster: 'the sandbox cannot start processes', worker_threads: 'the sandbox runs JavaScript on one thread',
  vm: 'there is no vm module in the QuickJS sandbox', inspector: 'there is no debugger in the QuickJS sandbox',
  crypto: 'crypto is not implemented in the QuickJS sandbox', zlib: 'zlib is not implemented in the QuickJS sandbox',
  stream: 'streams are not implemented in the QuickJS sandbox', readline: 'there is no interactive stdin in the sandbox',
  buffer: 'Buffer is not implemented in the QuickJS sandbox; use strings or Uint8Array',
  string_decoder: 'string_decoder is not implemented in the QuickJS sandbox', querystring: 'querystring is not implemented in the QuickJS sandbox; use URLSearchParams-free parsing',
  tty: 'the sandbox has no terminal', v8: 'the engine is QuickJS, not V8', perf_hooks: 'perf_hooks is not implemented; use Date.now()',
  async_hooks: 'async_hooks is not implemented in the QuickJS sandbox', repl: 'the sandbox has no interactive REPL',
  wasi: 'WASI is not available in the sandbox', sqlite: 'node:sqlite is not available; the shell has sqlite3',
  diagnostics_channel: 'diagnostics_channel is not implemented in the QuickJS sandbox', punycode: 'punycode is not implemented in the QuickJS sandbox',
};

export class ResolveError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const EXTENSIONS = ['.js', '.json', '.mjs', '.cjs'];
const ESM_SYNTAX = /^\s*(import\s*[\w{*'"]|export\s+(default|const|let|var|function|async|class|\{|\*)|export\s*\{)/m;

function readJson(fs: SnapshotFs, path: string): Record<string, unknown> | null {
  if (fs.stat(path)?.kind !== 'file') return null;
  try {
    const v: unknown = JSON.parse(fs.readFile(path));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The format Node would load `path` in. */
export function formatOf(fs: SnapshotFs, path: string): ModuleFormat {
  if (path.endsWith('.json')) return 'json';
  if (path.endsWith('.mjs')) return 'esm';
  if (path.endsWith('.cjs')) return 'cjs';
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const pkg = readJson(fs, `${dir === '/' ? '' : dir}/package.json`);
    if (pkg) {
      if (pkg.type === 'module') return 'esm';
      if (pkg.type === 'commonjs') return 'cjs';
      break;
    }
    if (dir === '/') break;
  }
  try {
    return ESM_SYNTAX.test(fs.readFile(path)) ? 'esm' : 'cjs';
  } catch {
    return 'cjs';
  }
}

function asFile(fs: SnapshotFs, path: string): string | null {
  if (fs.stat(path)?.kind === 'file') return path;
  for (const ext of EXTENSIONS) if (fs.stat(path + ext)?.kind === 'file') return path + ext;
  if (fs.stat(`${path}.node`)?.kind === 'file') nativeAddon(`${path}.node`);
  return null;
}

function nativeAddon(path: string): never {
  throw new ResolveError('ERR_SANDBOX_UNSUPPORTED', `Cannot load native addon ${path}: the sandbox runs JavaScript in QuickJS, which cannot load compiled .node modules.`);
}

function exportsEntry(exp: unknown, esm: boolean): string | null {
  if (typeof exp === 'string') return exp;
  if (!exp || typeof exp !== 'object') return null;
  const map = exp as Record<string, unknown>;
  const dot = '.' in map ? map['.'] : map;
  if (typeof dot === 'string') return dot;
  if (!dot || typeof dot !== 'object') return null;
  const cond = dot as Record<string, unknown>;
  for (const key of esm ? ['import', 'node', 'default', 'require'] : ['require', 'node', 'default', 'import']) {
    const v = cond[key];
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object') {
      const nested = exportsEntry({ '.': v }, esm);
      if (nested) return nested;
    }
  }
  return null;
}

function asDirectory(fs: SnapshotFs, dir: string, esm: boolean): string | null {
  if (fs.stat(dir)?.kind !== 'dir') return null;
  const pkg = readJson(fs, `${dir}/package.json`);
  const entry = pkg ? (exportsEntry(pkg.exports, esm) ?? (typeof pkg.main === 'string' ? pkg.main : null)) : null;
  if (entry) {
    const target = resolvePath(dir, entry);
    const found = asFile(fs, target) ?? asIndex(fs, target);
    if (found) return found;
  }
  return asIndex(fs, dir);
}

function asIndex(fs: SnapshotFs, dir: string): string | null {
  for (const ext of EXTENSIONS) if (fs.stat(`${dir}/index${ext}`)?.kind === 'file') return `${dir}/index${ext}`;
  return null;
}

function notFound(request: string, from: string): never {
  const bare = !request.startsWith('.') && !request.startsWith('/');
  const hint = bare
    ? `\nThe sandbox is offline: packages cannot be installed. Use Node's built-in modules (${SUPPORTED_BUILTINS.filter((b) => !b.includes('/')).join(', ')}) or relative files.`
    : '';
  throw new ResolveError('MODULE_NOT_FOUND', `Cannot find module '${request}'\nRequire stack:\n- ${from}${hint}`);
}

/**
 * Resolves `request` as seen from a file in `fromDir`. `esm` picks the `import` condition of
 * package `exports`. Throws a {@link ResolveError}.
 */
export function resolveModule(fs: SnapshotFs, request: string, fromDir: string, esm = false): ResolvedModule {
  const name = request.startsWith('node:') ? request.slice(5) : request;
  if (SUPPORTED_BUILTINS.includes(name)) return { kind: 'builtin', name };
  const top = name.split('/')[0] ?? name;
  const reason = UNSUPPORTED_BUILTINS[top];
  if (reason !== undefined) {
    throw new ResolveError('ERR_SANDBOX_UNSUPPORTED', `node:${name} is not available in this sandbox: ${reason}. Built-ins here: ${SUPPORTED_BUILTINS.join(', ')}.`);
  }
  if (request.startsWith('node:')) throw new ResolveError('ERR_UNKNOWN_BUILTIN_MODULE', `No such built-in module: ${request}`);
  let found: string | null;
  if (request.startsWith('./') || request.startsWith('../') || request.startsWith('/') || request === '.' || request === '..') {
    const target = resolvePath(fromDir, request);
    if (target.endsWith('.node')) nativeAddon(target);
    found = asFile(fs, target) ?? asDirectory(fs, target, esm);
  } else {
    found = null;
    for (let dir = fromDir; !found; dir = dirname(dir)) {
      const base = `${dir === '/' ? '' : dir}/node_modules/${request}`;
      found = asFile(fs, base) ?? asDirectory(fs, base, esm);
      if (dir === '/') break;
    }
  }
  if (!found) notFound(request, fromDir);
  return { kind: 'file', path: found, format: formatOf(fs, found) };
}
