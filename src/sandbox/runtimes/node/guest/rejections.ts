/**
 * Guest source (runs inside QuickJS): unhandled promise rejections, as Node reports them.
 *
 * QuickJS only reports these through a host rejection tracker, which the WASM build does not
 * expose; so the global `Promise` becomes a subclass that remembers a rejection until a handler
 * (`then` / `catch` / `await`) is attached. After each round of promise jobs the host asks
 * `__node.takeUnhandled()`: the first rejection still unhandled is emitted to
 * `process.on('unhandledRejection')` listeners, or, with none, printed like an uncaught error
 * and the program exits 1 (Node's default `--unhandled-rejections=throw`).
 *
 * Known gap: a promise made by the engine itself — the result of an `async function` call —
 * is not a subclass instance, so `async function main() { throw e } main();` is not seen.
 * Everything made through `Promise` (`new Promise`, `Promise.reject`, `.then` chains,
 * `Promise.all`, the sandbox's `fs.promises`) is.
 *
 * Same rules as core.ts: no backticks or dollar-brace sequences.
 */
export const REJECTIONS_SOURCE = String.raw`
(function () {
  'use strict';
  const N = globalThis.__node;
  const Native = globalThis.Promise;
  const nativeThen = Native.prototype.then;
  const pending = new Map();
  const handled = new WeakSet();

  class Promise extends Native {
    constructor(executor) {
      if (typeof executor !== 'function') throw new TypeError('Promise resolver ' + typeof executor + ' is not a function');
      let self;
      let early;
      const track = function (reason) {
        if (self === undefined) early = { reason: reason };
        else if (!handled.has(self)) pending.set(self, reason);
      };
      super(function (resolve, reject) {
        const rejectTracked = function (reason) { track(reason); reject(reason); };
        try {
          executor(resolve, rejectTracked);
        } catch (e) {
          rejectTracked(e);
        }
      });
      self = this;
      if (early && !handled.has(self)) pending.set(self, early.reason);
    }
    then(onFulfilled, onRejected) {
      handled.add(this);
      pending.delete(this);
      return nativeThen.call(this, onFulfilled, onRejected);
    }
    // Engine-made promises (async functions) are promises too.
    static [Symbol.hasInstance](v) { return v instanceof Native; }
  }
  Object.defineProperty(globalThis, 'Promise', { value: Promise, writable: true, configurable: true, enumerable: false });

  N.takeUnhandled = function () {
    for (const [p, reason] of pending) {
      pending.delete(p);
      if (reason instanceof N.ExitSignal) continue;
      if (process.listenerCount('unhandledRejection') > 0) {
        process.emit('unhandledRejection', reason, p);
        continue;
      }
      if (reason instanceof Error) return reason;
      const shown = typeof reason === 'string' ? reason : N.inspect(reason);
      const err = new Error('This error originated either by throwing inside of an async function without a catch block, ' +
        'or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason "' + shown + '".');
      err.name = 'UnhandledPromiseRejection';
      err.code = 'ERR_UNHANDLED_REJECTION';
      return err;
    }
    return undefined;
  };
})();
`;
