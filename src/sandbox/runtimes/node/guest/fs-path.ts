/**
 * Guest source: `node:path` (POSIX), `node:fs` (sync, callback and `fs/promises` forms over the
 * host's file calls), `node:os` and `node:url`. See core.ts for the rules guest sources follow.
 */
export const FS_PATH_SOURCE = String.raw`
(function (N) {
  'use strict';
  // --- path ----------------------------------------------------------------------------
  function normalizeParts(parts, absolute) {
    const out = [];
    for (const p of parts) {
      if (!p || p === '.') continue;
      if (p === '..') { if (out.length && out[out.length - 1] !== '..') out.pop(); else if (!absolute) out.push('..'); }
      else out.push(p);
    }
    return out;
  }
  const path = {
    sep: '/',
    delimiter: ':',
    normalize: function (p) {
      if (p === '') return '.';
      const abs = p[0] === '/';
      const trailing = p[p.length - 1] === '/';
      let r = normalizeParts(p.split('/'), abs).join('/');
      if (!r && !abs) r = '.';
      if (r && trailing) r += '/';
      return (abs ? '/' : '') + r;
    },
    join: function () {
      const parts = Array.prototype.slice.call(arguments).filter(function (s) { return s !== ''; });
      return parts.length ? path.normalize(parts.join('/')) : '.';
    },
    resolve: function () {
      let resolved = '';
      for (let i = arguments.length - 1; i >= -1 && resolved[0] !== '/'; i--) {
        const seg = i >= 0 ? String(arguments[i]) : N.cwd;
        if (seg) resolved = seg + (resolved ? '/' + resolved : '');
      }
      return '/' + normalizeParts(resolved.split('/'), true).join('/');
    },
    isAbsolute: function (p) { return p[0] === '/'; },
    dirname: function (p) {
      if (!p) return '.';
      const s = p.replace(/\/+$/, '');
      if (!s) return '/';
      const i = s.lastIndexOf('/');
      if (i === -1) return '.';
      return i === 0 ? '/' : s.slice(0, i);
    },
    basename: function (p, ext) {
      const s = p.replace(/\/+$/, '');
      let b = s.slice(s.lastIndexOf('/') + 1);
      if (ext && b.endsWith(ext) && b !== ext) b = b.slice(0, -ext.length);
      return b;
    },
    extname: function (p) {
      const b = path.basename(p);
      const i = b.lastIndexOf('.');
      return i <= 0 ? '' : b.slice(i);
    },
    relative: function (from, to) {
      const a = path.resolve(from).split('/').filter(Boolean);
      const b = path.resolve(to).split('/').filter(Boolean);
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return a.slice(i).map(function () { return '..'; }).concat(b.slice(i)).join('/');
    },
    parse: function (p) {
      const root = p[0] === '/' ? '/' : '';
      const base = path.basename(p);
      const ext = path.extname(p);
      const dir = path.dirname(p);
      return { root: root, dir: dir === '.' && !p.includes('/') ? '' : dir, base: base, ext: ext, name: ext ? base.slice(0, -ext.length) : base };
    },
    format: function (o) {
      const dir = o.dir || o.root || '';
      const base = o.base || (o.name || '') + (o.ext || '');
      return dir ? (dir === o.root ? dir + base : dir + '/' + base) : base;
    },
    toNamespacedPath: function (p) { return p; },
  };
  path.posix = path;
  path.win32 = path;
  N.define('path', function () { return path; });
  N.define('path/posix', function () { return path; });

  // --- fs ------------------------------------------------------------------------------
  function abs(p) {
    if (p && typeof p === 'object' && typeof p.href === 'string') p = p.pathname;
    if (typeof p !== 'string') throw N.codedError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string. Received ' + N.inspect(p));
    return path.resolve(p);
  }
  function encodingOf(o) { return typeof o === 'string' ? o : o && o.encoding ? o.encoding : null; }
  function asText(data) {
    if (typeof data === 'string') return data;
    if (data instanceof Uint8Array) return new TextDecoder().decode(data);
    return String(data);
  }
  function toBytes(text) {
    const bytes = new TextEncoder().encode(text);
    bytes.toString = function (enc) { return text; };
    return bytes;
  }
  function Stats(s) {
    this.size = s.size; this.mode = s.mode; this.mtimeMs = s.mtimeMs; this.atimeMs = s.mtimeMs; this.ctimeMs = s.mtimeMs; this.birthtimeMs = s.mtimeMs;
    this.mtime = new Date(s.mtimeMs); this.atime = this.mtime; this.ctime = this.mtime; this.birthtime = this.mtime;
    this.uid = 1000; this.gid = 1000; this.nlink = 1; this.dev = 1; this.ino = 0; this.blksize = 4096; this.blocks = Math.ceil(s.size / 512);
    Object.defineProperty(this, '_kind', { value: s.kind });
  }
  Stats.prototype.isFile = function () { return this._kind === 'file'; };
  Stats.prototype.isDirectory = function () { return this._kind === 'dir'; };
  Stats.prototype.isSymbolicLink = function () { return false; };
  Stats.prototype.isFIFO = function () { return false; };
  Stats.prototype.isSocket = function () { return false; };
  Stats.prototype.isBlockDevice = function () { return false; };
  Stats.prototype.isCharacterDevice = function () { return false; };
  function Dirent(name, kind, parent) { this.name = name; this.parentPath = parent; this.path = parent; Object.defineProperty(this, '_kind', { value: kind }); }
  Dirent.prototype = Object.create(Stats.prototype);
  Dirent.prototype.constructor = Dirent;

  const sync = {
    readFileSync: function (p, o) {
      if (typeof p === 'number') throw N.codedError(Error, 'ERR_SANDBOX_UNSUPPORTED', 'fs: reading from file descriptors (stdin) is not supported in this sandbox');
      const text = N.call('readFile', abs(p));
      return encodingOf(o) ? text : toBytes(text);
    },
    writeFileSync: function (p, data) { N.call('writeFile', abs(p), asText(data), false); },
    appendFileSync: function (p, data) { N.call('writeFile', abs(p), asText(data), true); },
    existsSync: function (p) { try { return N.call('stat', abs(p)) !== null; } catch (e) { return false; } },
    statSync: function (p, o) {
      const s = N.call('stat', abs(p));
      if (s === null) {
        if (o && o.throwIfNoEntry === false) return undefined;
        throw N.systemError({ code: 'ENOENT', errno: -2, syscall: 'stat', path: abs(p), message: "ENOENT: no such file or directory, stat '" + abs(p) + "'" });
      }
      return new Stats(s);
    },
    readdirSync: function (p, o) {
      const dir = abs(p);
      const entries = N.call('readdir', dir);
      if (o && o.withFileTypes) return entries.map(function (e) { return new Dirent(e.name, e.kind, dir); });
      return entries.map(function (e) { return e.name; });
    },
    mkdirSync: function (p, o) {
      const recursive = !!(o && (o === true || o.recursive));
      const made = N.call('mkdir', abs(p), recursive);
      return recursive ? made || undefined : undefined;
    },
    rmSync: function (p, o) { N.call('rm', abs(p), !!(o && o.recursive), !!(o && o.force), 'rm'); },
    rmdirSync: function (p, o) { N.call('rm', abs(p), !!(o && o.recursive), false, 'rmdir'); },
    unlinkSync: function (p) { N.call('rm', abs(p), false, false, 'unlink'); },
    renameSync: function (a, b) { N.call('rename', abs(a), abs(b)); },
    copyFileSync: function (a, b) { N.call('writeFile', abs(b), N.call('readFile', abs(a)), false); },
    cpSync: function (a, b, o) { N.call('cp', abs(a), abs(b), !!(o && o.recursive)); },
    realpathSync: function (p) { sync.statSync(p); return abs(p); },
    accessSync: function (p) { sync.statSync(p); },
    chmodSync: function () {},
    utimesSync: function () {},
    mkdtempSync: function (prefix) {
      let i = 0;
      while (sync.existsSync(prefix + 'tmp' + i)) i++;
      sync.mkdirSync(prefix + 'tmp' + i, { recursive: true });
      return prefix + 'tmp' + i;
    },
  };
  sync.lstatSync = sync.statSync;
  sync.realpathSync.native = sync.realpathSync;

  const promises = {};
  const callbacks = {};
  Object.keys(sync).forEach(function (name) {
    const fn = sync[name];
    const base = name.replace(/Sync$/, '');
    if (name === 'existsSync') return;
    promises[base] = function () {
      const args = arguments;
      return new Promise(function (resolve, reject) {
        try { resolve(fn.apply(null, args)); } catch (e) { reject(e); }
      });
    };
    callbacks[base] = function () {
      const args = Array.prototype.slice.call(arguments);
      const cb = typeof args[args.length - 1] === 'function' ? args.pop() : function () {};
      let result, error = null;
      try { result = fn.apply(null, args); } catch (e) { error = e; }
      setTimeout(function () { cb(error, result); }, 0);
    };
  });
  callbacks.exists = function (p, cb) { const r = sync.existsSync(p); setTimeout(function () { cb(r); }, 0); };
  promises.access = function (p) { return promises.stat(p).then(function () {}); };
  const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 };
  promises.constants = constants;

  function unsupportedStream(name) {
    return function () { throw N.codedError(Error, 'ERR_SANDBOX_UNSUPPORTED', 'fs.' + name + ' is not supported in this sandbox; use fs.readFileSync / fs.writeFileSync instead'); };
  }
  const fs = Object.assign({}, sync, callbacks, {
    promises: promises,
    constants: constants,
    Stats: Stats,
    Dirent: Dirent,
    createReadStream: unsupportedStream('createReadStream'),
    createWriteStream: unsupportedStream('createWriteStream'),
    watch: unsupportedStream('watch'),
    openSync: unsupportedStream('openSync'),
  });
  N.define('fs', function () { return fs; });
  N.define('fs/promises', function () { return promises; });

  // --- os, url -------------------------------------------------------------------------
  N.define('os', function () {
    return {
      EOL: '\n',
      platform: function () { return 'linux'; },
      type: function () { return 'Linux'; },
      arch: function () { return 'x64'; },
      release: function () { return '6.0.0-sandbox'; },
      hostname: function () { return 'sandbox'; },
      homedir: function () { return process.env.HOME || '/'; },
      tmpdir: function () { return '/tmp'; },
      cpus: function () { return [{ model: 'QuickJS', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }]; },
      totalmem: function () { return 64 * 1024 * 1024; },
      freemem: function () { return 32 * 1024 * 1024; },
      uptime: function () { return 0; },
      userInfo: function () { return { username: process.env.USER || 'user', uid: 1000, gid: 1000, shell: '/bin/bash', homedir: process.env.HOME || '/' }; },
      endianness: function () { return 'LE'; },
      loadavg: function () { return [0, 0, 0]; },
      networkInterfaces: function () { return {}; },
    };
  });
  N.define('url', function () {
    function fileURLToPath(u) {
      const s = typeof u === 'string' ? u : u.href;
      if (s.indexOf('file://') !== 0) throw N.codedError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
      return decodeURIComponent(s.slice(7));
    }
    function pathToFileURL(p) {
      const href = 'file://' + encodeURI(path.resolve(p));
      return { href: href, pathname: path.resolve(p), protocol: 'file:', toString: function () { return href; } };
    }
    return { fileURLToPath: fileURLToPath, pathToFileURL: pathToFileURL, URL: globalThis.URL, URLSearchParams: globalThis.URLSearchParams };
  });
})(globalThis.__node);
`;
