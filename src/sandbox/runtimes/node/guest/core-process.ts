/**
 * Guest source, a section of the core closure (see core.ts): `process` (argv, env, exit, stdout
 * and stderr writers, listeners), `console`, and the timers the host's event loop fires
 * (`N.nextTimerDue` / `N.fireTimers`, driven by run-program.ts). Spliced into one function body
 * by core.ts; uses `N`, `inspect` and `format` from the sections before it.
 */
export const CORE_PROCESS = String.raw`
  // --- process -------------------------------------------------------------------------
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

  // --- console -------------------------------------------------------------------------
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

  // --- timers (the host's event loop fires them; see run-program.ts) ----------------------
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

`;
