/**
 * Guest source, a section of the core closure (see core.ts): `TextEncoder` / `TextDecoder`
 * (which QuickJS lacks) and the built-in modules `timers`, `timers/promises`, `util` and
 * `events`. Spliced into one function body by core.ts; uses the timers, `inspect` and `format`
 * of the sections before it.
 */
export const CORE_MODULES = String.raw`
  // --- TextEncoder / TextDecoder (UTF-8), which QuickJS lacks ---------------------------
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

  // --- util ----------------------------------------------------------------------------
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

  // --- events --------------------------------------------------------------------------
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
`;
