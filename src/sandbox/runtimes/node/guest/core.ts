/**
 * Guest source (runs inside QuickJS, not in our bundle): the host call, Node-style errors,
 * `util.format` / `util.inspect`, `process`, `console`, timers and `events`.
 *
 * Kept as a string so the same text runs in Vite builds, in the Worker and in Node without a
 * loader plugin; it must not contain backticks or dollar-brace sequences. Everything lives on
 * `globalThis.__node`, which the later guest files extend.
 */
export const CORE_SOURCE = String.raw`
(function () {
  'use strict';
  const hostFn = globalThis.__host;
  delete globalThis.__host;
  const N = (globalThis.__node = { builtins: Object.create(null), factories: Object.create(null) });

  N.call = function call(op) {
    const args = Array.prototype.slice.call(arguments, 1);
    const reply = JSON.parse(hostFn(op, JSON.stringify(args)));
    if (reply && reply.err) throw N.systemError(reply.err);
    return reply ? reply.ok : undefined;
  };

  N.systemError = function (e) {
    const err = new Error(e.message);
    err.code = e.code;
    if (e.errno !== undefined) err.errno = e.errno;
    if (e.syscall) err.syscall = e.syscall;
    if (e.path) err.path = e.path;
    return err;
  };

  N.codedError = function (Ctor, code, message) {
    const err = new Ctor(message);
    err.code = code;
    Object.defineProperty(err, 'name', { value: Ctor.name, enumerable: false, configurable: true, writable: true });
    const stack = String(err.stack || '');
    Object.defineProperty(err, 'stack', { value: Ctor.name + ' [' + code + ']: ' + message + '\n' + stack, enumerable: false, configurable: true, writable: true });
    return err;
  };

  N.define = function (name, factory) { N.factories[name] = factory; };
  N.builtin = function (name) {
    if (!(name in N.builtins)) {
      const f = N.factories[name];
      if (!f) return undefined;
      N.builtins[name] = f();
    }
    return N.builtins[name];
  };

  // ─── inspect / format ────────────────────────────────────────────────────────────────
  const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

  function quote(s) {
    const q = s.indexOf("'") === -1 ? "'" : s.indexOf('"') === -1 ? '"' : "'";
    let out = '';
    for (const ch of s) {
      if (ch === q || ch === '\\') out += '\\' + ch;
      else if (ch === '\n') out += '\\n';
      else if (ch === '\t') out += '\\t';
      else if (ch === '\r') out += '\\r';
      else out += ch;
    }
    return q + out + q;
  }

  function keyText(k) {
    return typeof k === 'symbol' ? '[' + k.toString() + ']' : IDENT.test(k) ? k : quote(k);
  }

  function ctorName(v) {
    const proto = Object.getPrototypeOf(v);
    if (proto === null) return null;
    const c = proto && proto.constructor;
    return c && typeof c.name === 'string' ? c.name : 'Object';
  }

  function wrap(items, open, close, indent, prefix) {
    if (items.length === 0) return prefix + open + close;
    const single = prefix + open + ' ' + items.join(', ') + ' ' + close;
    if (single.length + indent.length <= 76 && !items.some(function (i) { return i.indexOf('\n') !== -1; })) return single;
    const inner = indent + '  ';
    return prefix + open + '\n' + items.map(function (i) { return inner + i; }).join(',\n') + '\n' + indent + close;
  }

  function inspect(value, opts) {
    const o = Object.assign({ depth: 2 }, opts || {});
    const seen = [];
    function fmt(v, depth, indent, top) {
      if (v === null) return 'null';
      switch (typeof v) {
        case 'undefined': return 'undefined';
        case 'string': return top ? quote(v) : quote(v);
        case 'number': return Object.is(v, -0) ? '-0' : String(v);
        case 'bigint': return String(v) + 'n';
        case 'boolean': return String(v);
        case 'symbol': return v.toString();
        case 'function': {
          const isClass = /^class[\s{]/.test(Function.prototype.toString.call(v));
          const base = isClass ? '[class ' + (v.name || '(anonymous)') + ']' : (v.name ? '[Function: ' + v.name + ']' : '[Function (anonymous)]');
          const keys = Object.keys(v);
          if (keys.length === 0 || depth > o.depth) return base;
          return wrap(keys.map(function (k) { return keyText(k) + ': ' + fmt(v[k], depth + 1, indent + '  '); }), '{', '}', indent, base + ' ');
        }
      }
      if (seen.indexOf(v) !== -1) return '[Circular *1]';
      if (v instanceof Error) {
        const stack = v.stack ? String(v.stack) : '';
        const head = stack.indexOf(v.name + ':') === 0 || stack.indexOf(v.name + ' [') === 0 ? '' : (v.name || 'Error') + (v.message ? ': ' + v.message : '') + '\n';
        const text = (head + stack).replace(/\n$/, '');
        return indent ? text.split('\n').join('\n' + indent) : text;
      }
      if (v instanceof Date) return isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
      if (v instanceof RegExp) return String(v);
      if (typeof Promise !== 'undefined' && v instanceof Promise) return 'Promise { <unknown> }';
      const name = ctorName(v);
      if (depth > o.depth) {
        if (Array.isArray(v)) return '[Array]';
        return '[' + (name || 'Object: null prototype') + ']';
      }
      seen.push(v);
      try {
        const next = indent + '  ';
        if (Array.isArray(v)) {
          const items = [];
          const shown = Math.min(v.length, 100);
          for (let i = 0; i < shown; i++) items.push(i in v ? fmt(v[i], depth + 1, next) : '<1 empty item>');
          if (v.length > shown) items.push('... ' + (v.length - shown) + ' more item' + (v.length - shown > 1 ? 's' : ''));
          for (const k of Object.keys(v)) if (!/^\d+$/.test(k)) items.push(keyText(k) + ': ' + fmt(v[k], depth + 1, next));
          return wrap(items, '[', ']', indent, name && name !== 'Array' ? name + '(' + v.length + ') ' : '');
        }
        if (v instanceof Map) {
          const items = [];
          v.forEach(function (val, key) { items.push(fmt(key, depth + 1, next) + ' => ' + fmt(val, depth + 1, next)); });
          return wrap(items, '{', '}', indent, 'Map(' + v.size + ') ');
        }
        if (v instanceof Set) {
          const items = [];
          v.forEach(function (val) { items.push(fmt(val, depth + 1, next)); });
          return wrap(items, '{', '}', indent, 'Set(' + v.size + ') ');
        }
        if (ArrayBuffer.isView(v)) {
          const items = Array.prototype.slice.call(v, 0, 100).map(String);
          return wrap(items, '[', ']', indent, name + '(' + v.length + ') ');
        }
        const items = [];
        for (const k of Object.keys(v)) {
          const d = Object.getOwnPropertyDescriptor(v, k);
          const shownValue = d && (d.get || d.set) ? (d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]') : fmt(v[k], depth + 1, next);
          items.push(keyText(k) + ': ' + shownValue);
        }
        for (const s of Object.getOwnPropertySymbols(v)) {
          if (Object.prototype.propertyIsEnumerable.call(v, s)) items.push(keyText(s) + ': ' + fmt(v[s], depth + 1, next));
        }
        const prefix = name === null ? '[Object: null prototype] ' : name !== 'Object' ? name + ' ' : '';
        return wrap(items, '{', '}', indent, prefix);
      } finally {
        seen.pop();
      }
    }
    return fmt(value, 0, '', true);
  }

  function format() {
    const args = Array.prototype.slice.call(arguments);
    if (args.length === 0) return '';
    let first = args[0];
    let rest = args.slice(1);
    let out;
    if (typeof first === 'string') {
      out = first.replace(/%([sdifjoOc%])/g, function (m, f) {
        if (f === '%') return '%';
        if (rest.length === 0) return m;
        const a = rest.shift();
        switch (f) {
          case 's': return typeof a === 'string' ? a : typeof a === 'object' && a !== null ? inspect(a, { depth: 1 }) : String(a);
          case 'd': case 'i': {
            const n = typeof a === 'bigint' ? a : Number(a);
            return f === 'i' && typeof n === 'number' ? String(Math.trunc(n)) : String(n);
          }
          case 'f': return String(parseFloat(a));
          case 'j': try { return JSON.stringify(a); } catch (e) { return '[Circular]'; }
          case 'o': case 'O': return inspect(a, { depth: f === 'o' ? 4 : 2 });
          case 'c': return '';
        }
        return m;
      });
    } else {
      out = inspect(first);
    }
    for (const a of rest) out += ' ' + (typeof a === 'string' ? a : inspect(a));
    return out;
  }

  N.inspect = inspect;
  N.format = format;

  // ─── process ─────────────────────────────────────────────────────────────────────────
  const boot = N.call('boot');
  function writer(fd) {
    return {
      isTTY: false,
      columns: 80,
      write: function (chunk, enc, cb) {
        N.call('write', fd, typeof chunk === 'string' ? chunk : String(chunk));
        const done = typeof enc === 'function' ? enc : cb;
        if (typeof done === 'function') done();
        return true;
      },
      on: function () { return this; },
      once: function () { return this; },
      end: function () {},
    };
  }
  N.ExitSignal = function ExitSignal(code) { this.code = code; };
  const listeners = Object.create(null);
  const proc = {
    argv: boot.argv,
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    env: boot.env,
    platform: 'linux',
    arch: 'x64',
    pid: 42,
    ppid: 1,
    title: 'node',
    version: 'v22.0.0',
    versions: { node: '22.0.0', quickjs: boot.engine },
    release: { name: 'node' },
    exitCode: undefined,
    stdout: writer(1),
    stderr: writer(2),
    stdin: { isTTY: false, on: function () { return this; }, read: function () { return null; } },
    cwd: function () { return N.cwd; },
    chdir: function (dir) { N.cwd = N.builtin('path').resolve(dir); },
    exit: function (code) {
      const c = code === undefined ? (proc.exitCode === undefined ? 0 : proc.exitCode) : Number(code) | 0;
      N.call('exit', c);
      throw new N.ExitSignal(c);
    },
    hrtime: Object.assign(function (prev) {
      const ms = N.call('now');
      const s = Math.floor(ms / 1000);
      const ns = Math.floor((ms % 1000) * 1e6);
      if (!prev) return [s, ns];
      let ds = s - prev[0], dn = ns - prev[1];
      if (dn < 0) { ds -= 1; dn += 1e9; }
      return [ds, dn];
    }, { bigint: function () { return BigInt(Math.floor(N.call('now') * 1e6)); } }),
    uptime: function () { return N.call('now') / 1000; },
    memoryUsage: function () { return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }; },
    nextTick: function (fn) {
      const args = Array.prototype.slice.call(arguments, 1);
      Promise.resolve().then(function () { fn.apply(null, args); });
    },
    on: function (ev, fn) { (listeners[ev] = listeners[ev] || []).push(fn); return proc; },
    once: function (ev, fn) { return proc.on(ev, fn); },
    off: function (ev, fn) { listeners[ev] = (listeners[ev] || []).filter(function (f) { return f !== fn; }); return proc; },
    emit: function (ev) {
      const args = Array.prototype.slice.call(arguments, 1);
      (listeners[ev] || []).slice().forEach(function (f) { f.apply(proc, args); });
      return (listeners[ev] || []).length > 0;
    },
    listenerCount: function (ev) { return (listeners[ev] || []).length; },
  };
  proc.removeListener = proc.off;
  proc.addListener = proc.on;
  N.cwd = boot.cwd;
  globalThis.process = proc;
  globalThis.global = globalThis;

  // ─── console ─────────────────────────────────────────────────────────────────────────
  const counts = Object.create(null);
  const timers = Object.create(null);
  let group = '';
  function line(fd, args) {
    const text = format.apply(null, args);
    N.call('write', fd, (group ? text.split('\n').map(function (l) { return group + l; }).join('\n') : text) + '\n');
  }
  globalThis.console = {
    log: function () { line(1, arguments); },
    info: function () { line(1, arguments); },
    debug: function () { line(1, arguments); },
    error: function () { line(2, arguments); },
    warn: function () { line(2, arguments); },
    trace: function () { line(2, ['Trace: ' + format.apply(null, arguments) + '\n' + String(new Error().stack || '').replace(/\n$/, '')]); },
    dir: function (v, o) { line(1, [inspect(v, o)]); },
    table: function (v) { line(1, [inspect(v)]); },
    assert: function (cond) {
      if (!cond) line(2, ['Assertion failed' + (arguments.length > 1 ? ': ' + format.apply(null, Array.prototype.slice.call(arguments, 1)) : '')]);
    },
    count: function (label) { const l = label === undefined ? 'default' : String(label); counts[l] = (counts[l] || 0) + 1; line(1, [l + ': ' + counts[l]]); },
    countReset: function (label) { counts[label === undefined ? 'default' : String(label)] = 0; },
    time: function (label) { timers[label === undefined ? 'default' : String(label)] = N.call('now'); },
    timeEnd: function (label) {
      const l = label === undefined ? 'default' : String(label);
      if (l in timers) { line(1, [l + ': ' + (N.call('now') - timers[l]).toFixed(3) + 'ms']); delete timers[l]; }
    },
    timeLog: function (label) {
      const l = label === undefined ? 'default' : String(label);
      if (l in timers) line(1, [l + ': ' + (N.call('now') - timers[l]).toFixed(3) + 'ms']);
    },
    group: function () { if (arguments.length) line(1, arguments); group += '  '; },
    groupEnd: function () { group = group.slice(2); },
  };
  globalThis.console.groupCollapsed = globalThis.console.group;

  // ─── timers (the host's event loop fires them; see run-program.ts) ──────────────────────
  let nextId = 1;
  const pending = new Map();
  function schedule(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw N.codedError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function. Received ' + inspect(fn));
    const id = nextId++;
    const delay = Math.max(1, Number(ms) || 0);
    pending.set(id, { due: N.call('now') + delay, fn: fn, args: args, repeat: repeat ? delay : 0, seq: id });
    return { id: id, ref: function () { return this; }, unref: function () { return this; }, hasRef: function () { return true; }, refresh: function () { return this; }, [Symbol.toPrimitive]: function () { return id; } };
  }
  function cancel(t) {
    if (t === undefined || t === null) return;
    pending.delete(typeof t === 'object' ? t.id : Number(t));
  }
  globalThis.setTimeout = function (fn, ms) { return schedule(fn, ms, Array.prototype.slice.call(arguments, 2), false); };
  globalThis.setInterval = function (fn, ms) { return schedule(fn, ms, Array.prototype.slice.call(arguments, 2), true); };
  globalThis.setImmediate = function (fn) { return schedule(fn, 0, Array.prototype.slice.call(arguments, 1), false); };
  globalThis.clearTimeout = cancel;
  globalThis.clearInterval = cancel;
  globalThis.clearImmediate = cancel;
  globalThis.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
  /** Earliest due time, or -1 when nothing is scheduled. */
  N.nextTimerDue = function () {
    let best = -1;
    pending.forEach(function (t) { if (best === -1 || t.due < best) best = t.due; });
    return best;
  };
  /** Runs the earliest timer due at 'now' (one at a time, so promise jobs run in between). */
  N.fireTimers = function (now) {
    let id = -1, best = null;
    pending.forEach(function (t, key) {
      if (t.due <= now && (best === null || t.due < best.due || (t.due === best.due && t.seq < best.seq))) { best = t; id = key; }
    });
    if (best === null) return;
    if (best.repeat) { best.due += best.repeat; best.seq = nextId++; } else pending.delete(id);
    best.fn.apply(null, best.args);
  };

  // ─── TextEncoder / TextDecoder (UTF-8), which QuickJS lacks ───────────────────────────
  if (typeof globalThis.TextEncoder === 'undefined') {
    globalThis.TextEncoder = function TextEncoder() {};
    globalThis.TextEncoder.prototype.encoding = 'utf-8';
    globalThis.TextEncoder.prototype.encode = function (s) {
      const str = String(s === undefined ? '' : s);
      const out = [];
      for (const ch of str) {
        let c = ch.codePointAt(0);
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return new Uint8Array(out);
    };
    globalThis.TextDecoder = function TextDecoder() {};
    globalThis.TextDecoder.prototype.encoding = 'utf-8';
    globalThis.TextDecoder.prototype.decode = function (bytes) {
      if (!bytes) return '';
      const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes.buffer || bytes);
      let out = '';
      for (let i = 0; i < b.length; ) {
        const c = b[i++];
        let cp;
        if (c < 0x80) cp = c;
        else if (c >= 0xf0) cp = ((c & 7) << 18) | ((b[i++] & 63) << 12) | ((b[i++] & 63) << 6) | (b[i++] & 63);
        else if (c >= 0xe0) cp = ((c & 15) << 12) | ((b[i++] & 63) << 6) | (b[i++] & 63);
        else if (c >= 0xc0) cp = ((c & 31) << 6) | (b[i++] & 63);
        else cp = 0xfffd;
        out += String.fromCodePoint(cp);
      }
      return out;
    };
  }

  N.define('timers', function () {
    return { setTimeout: setTimeout, setInterval: setInterval, setImmediate: setImmediate, clearTimeout: clearTimeout, clearInterval: clearInterval, clearImmediate: clearImmediate };
  });
  N.define('timers/promises', function () {
    return {
      setTimeout: function (ms, value) { return new Promise(function (r) { setTimeout(function () { r(value); }, ms); }); },
      setImmediate: function (value) { return new Promise(function (r) { setImmediate(function () { r(value); }); }); },
    };
  });

  // ─── util ────────────────────────────────────────────────────────────────────────────
  N.define('util', function () {
    const util = {
      format: format,
      inspect: inspect,
      isDeepStrictEqual: function (a, b) { return N.deepEqual(a, b, true); },
      promisify: function (fn) {
        return function () {
          const args = Array.prototype.slice.call(arguments);
          const self = this;
          return new Promise(function (resolve, reject) {
            fn.apply(self, args.concat([function (err, value) { if (err) reject(err); else resolve(value); }]));
          });
        };
      },
      callbackify: function (fn) {
        return function () {
          const args = Array.prototype.slice.call(arguments);
          const cb = args.pop();
          fn.apply(this, args).then(function (v) { cb(null, v); }, function (e) { cb(e); });
        };
      },
      inherits: function (ctor, superCtor) { Object.setPrototypeOf(ctor.prototype, superCtor.prototype); Object.setPrototypeOf(ctor, superCtor); },
      deprecate: function (fn) { return fn; },
      types: {
        isDate: function (v) { return v instanceof Date; },
        isRegExp: function (v) { return v instanceof RegExp; },
        isPromise: function (v) { return v instanceof Promise; },
        isMap: function (v) { return v instanceof Map; },
        isSet: function (v) { return v instanceof Set; },
      },
      TextEncoder: globalThis.TextEncoder,
      TextDecoder: globalThis.TextDecoder,
    };
    util.inspect.custom = Symbol.for('nodejs.util.inspect.custom');
    return util;
  });

  // ─── events ──────────────────────────────────────────────────────────────────────────
  N.define('events', function () {
    function EventEmitter() { this._events = Object.create(null); }
    EventEmitter.prototype.on = function (ev, fn) {
      if (!this._events) this._events = Object.create(null);
      (this._events[ev] = this._events[ev] || []).push(fn);
      return this;
    };
    EventEmitter.prototype.addListener = EventEmitter.prototype.on;
    EventEmitter.prototype.prependListener = function (ev, fn) {
      if (!this._events) this._events = Object.create(null);
      (this._events[ev] = this._events[ev] || []).unshift(fn);
      return this;
    };
    EventEmitter.prototype.once = function (ev, fn) {
      const self = this;
      function once() { self.off(ev, once); return fn.apply(self, arguments); }
      once.listener = fn;
      return this.on(ev, once);
    };
    EventEmitter.prototype.off = function (ev, fn) {
      if (!this._events || !this._events[ev]) return this;
      this._events[ev] = this._events[ev].filter(function (f) { return f !== fn && f.listener !== fn; });
      return this;
    };
    EventEmitter.prototype.removeListener = EventEmitter.prototype.off;
    EventEmitter.prototype.removeAllListeners = function (ev) {
      if (!this._events) return this;
      if (ev === undefined) this._events = Object.create(null); else delete this._events[ev];
      return this;
    };
    EventEmitter.prototype.emit = function (ev) {
      const list = this._events && this._events[ev];
      const args = Array.prototype.slice.call(arguments, 1);
      if (!list || list.length === 0) {
        if (ev === 'error') throw args[0] instanceof Error ? args[0] : new Error('Unhandled error. (' + inspect(args[0]) + ')');
        return false;
      }
      const self = this;
      list.slice().forEach(function (f) { f.apply(self, args); });
      return true;
    };
    EventEmitter.prototype.listenerCount = function (ev) { return this._events && this._events[ev] ? this._events[ev].length : 0; };
    EventEmitter.prototype.listeners = function (ev) { return this._events && this._events[ev] ? this._events[ev].slice() : []; };
    EventEmitter.prototype.eventNames = function () { return this._events ? Object.keys(this._events) : []; };
    EventEmitter.prototype.setMaxListeners = function () { return this; };
    EventEmitter.EventEmitter = EventEmitter;
    EventEmitter.default = EventEmitter;
    EventEmitter.once = function (emitter, ev) {
      return new Promise(function (resolve) { emitter.once(ev, function () { resolve(Array.prototype.slice.call(arguments)); }); });
    };
    return EventEmitter;
  });
})();
`;
