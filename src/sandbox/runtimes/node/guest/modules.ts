/**
 * Guest source: CommonJS `require` (files, JSON, directories, built-ins) and the bridges ES
 * modules use to import built-ins and CommonJS files. Where a path resolves to is decided on
 * the host (`resolve.ts`), so `require` and `import` agree. See core.ts for the source rules.
 */
export const MODULES_SOURCE = String.raw`
(function (N) {
  'use strict';
  const compile = globalThis.__compile;
  delete globalThis.__compile;
  const cache = Object.create(null);
  const path = N.builtin('path');

  function Module(id) {
    this.id = id;
    this.filename = id;
    this.path = path.dirname(id);
    this.exports = {};
    this.loaded = false;
    this.children = [];
  }

  N.resolve = function (request, fromDir) {
    return N.call('resolve', request, fromDir);
  };

  function load(target) {
    if (target.kind === 'builtin') {
      const m = N.builtin(target.name);
      if (m === undefined) throw N.codedError(Error, 'ERR_UNKNOWN_BUILTIN_MODULE', 'No such built-in module: ' + target.name);
      return m;
    }
    return N.requireFile(target.path, target.format);
  }

  N.requireFile = function (file, format) {
    const cached = cache[file];
    if (cached) return cached.exports;
    if (format === 'esm') {
      throw N.codedError(Error, 'ERR_REQUIRE_ESM', 'require() of ES Module ' + file + ' is not supported in this sandbox. Use import instead, or name the file .cjs.');
    }
    const mod = new Module(file);
    cache[file] = mod;
    try {
      const source = N.call('readFile', file);
      if (format === 'json') {
        try { mod.exports = JSON.parse(source); } catch (e) { e.message = file + ': ' + e.message; throw e; }
      } else {
        const body = source.replace(/^#!.*/, '');
        const fn = compile('(function (exports, require, module, __filename, __dirname) {' + body + '\n})', file);
        fn.call(mod.exports, mod.exports, N.makeRequire(path.dirname(file), mod), mod, file, path.dirname(file));
      }
      mod.loaded = true;
    } catch (e) {
      delete cache[file];
      throw e;
    }
    return mod.exports;
  };

  N.makeRequire = function (dir, parent) {
    const req = function require(request) {
      if (typeof request !== 'string') throw N.codedError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "id" argument must be of type string. Received ' + N.inspect(request));
      return load(N.resolve(request, dir));
    };
    req.resolve = function (request) {
      const t = N.resolve(request, dir);
      return t.kind === 'builtin' ? t.name.replace(/^node:/, '') : t.path;
    };
    req.cache = cache;
    req.main = N.mainModule;
    return req;
  };

  /** The source of an ES module that re-exports a built-in or a CommonJS file's exports. */
  const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
  const RESERVED = /^(default|break|case|catch|class|const|continue|debugger|delete|do|else|enum|export|extends|false|finally|for|function|if|import|in|instanceof|new|null|return|super|switch|this|throw|true|try|typeof|var|void|while|with|yield|let|static|await|implements|package|protected|interface|private|public)$/;
  N.bridgeSource = function (expr, value) {
    const keys = value && (typeof value === 'object' || typeof value === 'function') ? Object.keys(value).filter(function (k) { return IDENT.test(k) && !RESERVED.test(k); }) : [];
    return 'const m = ' + expr + ';\nexport default m;\n' + (keys.length ? 'export const { ' + keys.join(', ') + ' } = m;\n' : '');
  };
  N.esmBridge = function (kind, target) {
    if (kind === 'builtin') return N.bridgeSource('globalThis.__node.builtin(' + JSON.stringify(target) + ')', N.builtin(target));
    return N.bridgeSource('globalThis.__node.requireFile(' + JSON.stringify(target) + ', "cjs")', N.requireFile(target, 'cjs'));
  };

  N.define('module', function () {
    return {
      createRequire: function (from) {
        const f = typeof from === 'string' ? from.replace(/^file:\/\//, '') : from.pathname;
        return N.makeRequire(path.dirname(f));
      },
      builtinModules: Object.keys(N.factories),
      isBuiltin: function (name) { return String(name).replace(/^node:/, '') in N.factories; },
    };
  });

  N.runMain = function (file, format) {
    N.mainModule = { id: '.', filename: file, exports: {} };
    N.requireFile(file, format);
  };
  N.runEval = function (code, print) {
    const mod = new Module('[eval]');
    mod.id = '[eval]';
    globalThis.require = N.makeRequire(N.cwd, mod);
    globalThis.module = mod;
    globalThis.exports = mod.exports;
    globalThis.__filename = '[eval]';
    globalThis.__dirname = '.';
    const value = compile(code, '[eval]', true);
    if (print) console.log(value);
  };
})(globalThis.__node);
`;
