/**
 * Guest source (runs inside QuickJS, not in our bundle): the host call, Node-style errors,
 * `util.format` / `util.inspect`, `process`, `console`, timers and `events`.
 *
 * Kept as a string so the same text runs in Vite builds, in the Worker and in Node without a
 * loader plugin; it must not contain backticks or dollar-brace sequences. Everything lives on
 * `globalThis.__node`, which the later guest files extend.
 *
 * One closure, four files: the sections share locals (`N`, `inspect`, `format`, the timer table),
 * so they are spliced back into one function body here rather than run as separate programs
 * (which would have to publish those locals on `__node`, where guest code can see them). Each
 * part is a raw string that starts with a newline; dropping it and joining gives the text the
 * guest has always run, line for line (stack traces keep their `node:internal/core` lines).
 */
import { CORE_INSPECT } from './core-inspect.ts';
import { CORE_PROCESS } from './core-process.ts';
import { CORE_MODULES } from './core-modules.ts';

/** The closure's opening: the host call, Node-style errors, the built-in module table. */
const CORE_OPEN = String.raw`
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

`;

/** The closure's end. */
const CORE_CLOSE = String.raw`
})();
`;

export const CORE_SOURCE = '\n' + [CORE_OPEN, CORE_INSPECT, CORE_PROCESS, CORE_MODULES, CORE_CLOSE].map((part) => part.slice(1)).join('');
