/**
 * Guest source: enough of `node:test` for `node --test` on a small project — `test` / `it`,
 * `describe` / `suite`, subtests through `t.test`, async and callback tests, `skip` / `todo` /
 * `only` (as a flag), and the `before` / `after` / `beforeEach` / `afterEach` hooks.
 *
 * Tests register while the file runs; the host calls `__node.runTests()` once the file (and
 * its top-level await) is done, and gets a plain result tree back that `tap-report.ts` prints.
 */
export const TEST_RUNNER_SOURCE = String.raw`
(function (N) {
  'use strict';
  function newSuite(name, parent, opts) {
    return { kind: 'suite', name: name, parent: parent, opts: opts || {}, children: [], before: [], after: [], beforeEach: [], afterEach: [], fn: null };
  }
  const root = newSuite('<root>', null);
  let current = root;
  N.testsRegistered = function () { return root.children.length > 0; };

  function parseArgs(args) {
    let name, opts = {}, fn;
    for (const a of args) {
      if (typeof a === 'string') name = a;
      else if (typeof a === 'function') fn = a;
      else if (a && typeof a === 'object') opts = a;
    }
    return { name: name || (fn && fn.name) || '<anonymous>', opts: opts, fn: fn };
  }
  function register(kind, args, extra) {
    const p = parseArgs(args);
    const opts = Object.assign({}, p.opts, extra || {});
    if (kind === 'suite') {
      const s = newSuite(p.name, current, opts);
      current.children.push(s);
      const prev = current;
      current = s;
      try { if (p.fn) s.result = p.fn({ name: p.name }); } finally { current = prev; }
      return Promise.resolve();
    }
    current.children.push({ kind: 'test', name: p.name, opts: opts, fn: p.fn, parent: current });
    return Promise.resolve();
  }
  function variants(kind) {
    const f = function () { return register(kind, arguments); };
    f.skip = function () { return register(kind, arguments, { skip: true }); };
    f.todo = function () { return register(kind, arguments, { todo: true }); };
    f.only = function () { return register(kind, arguments, { only: true }); };
    return f;
  }
  const test = variants('test');
  const describe = variants('suite');
  function hook(type) {
    return function (fn) { current[type].push(fn); };
  }

  function errorInfo(e) {
    if (!(e instanceof Error)) return { name: 'Error', message: 'Error: ' + N.inspect(e), stack: '', thrown: N.inspect(e) };
    const info = { name: e.name, message: e.message, stack: String(e.stack || '') };
    if (e.code !== undefined) info.code = String(e.code);
    if (e.code === 'ERR_ASSERTION') {
      info.operator = e.operator;
      info.expected = N.inspect(e.expected);
      info.actual = N.inspect(e.actual);
    }
    return info;
  }

  function callWithTimeout(fn, ctx, takesDone) {
    if (!takesDone) return Promise.resolve().then(function () { return fn(ctx); });
    return new Promise(function (resolve, reject) {
      try { fn(ctx, function (err) { if (err) reject(err); else resolve(); }); } catch (e) { reject(e); }
    });
  }

  function makeContext(node, subtests) {
    return {
      name: node.name,
      fullName: node.name,
      signal: undefined,
      skip: function (msg) { node.skipNow = msg === undefined ? true : msg; },
      todo: function (msg) { node.todoNow = msg === undefined ? true : msg; },
      diagnostic: function (msg) { (node.diagnostics = node.diagnostics || []).push(String(msg)); },
      plan: function () {},
      test: function () {
        const p = parseArgs(arguments);
        const child = { kind: 'test', name: p.name, opts: p.opts, fn: p.fn, parent: node };
        const run = runTest(child, []).then(function (r) { subtests.push(r); });
        node.pendingSubtests.push(run);
        return run;
      },
      before: function (fn) { (node.beforeSub = node.beforeSub || []).push(fn); },
      after: function (fn) { (node.afterSub = node.afterSub || []).push(fn); },
      beforeEach: function (fn) { (node.beforeEachSub = node.beforeEachSub || []).push(fn); },
      afterEach: function (fn) { (node.afterEachSub = node.afterEachSub || []).push(fn); },
      assert: N.builtin('assert/strict'),
      mock: mock,
    };
  }

  function now() { return N.call('now'); }

  async function runHooks(list, ctx) {
    for (const h of list) await callWithTimeout(h, ctx, h.length > 1);
  }

  /** The each-hooks that apply to 'node': its suites' hooks and its parent tests' t.beforeEach / t.afterEach. */
  function eachHooks(node, type) {
    const chain = [];
    for (let s = node.parent; s; s = s.parent) chain.unshift((s.kind === 'suite' ? s[type] : s[type + 'Sub']) || []);
    const flat = [].concat.apply([], chain);
    return type === 'afterEach' ? flat.reverse() : flat;
  }

  async function runTest(node, _unused) {
    const started = now();
    const result = { kind: 'test', name: node.name, status: 'pass', durationMs: 0, children: [] };
    if (node.opts.skip) { result.status = 'skip'; result.reason = typeof node.opts.skip === 'string' ? node.opts.skip : undefined; return result; }
    if (node.opts.todo && !node.fn) { result.status = 'todo'; result.reason = typeof node.opts.todo === 'string' ? node.opts.todo : undefined; return result; }
    node.pendingSubtests = [];
    const ctx = makeContext(node, result.children);
    try {
      await runHooks(eachHooks(node, 'beforeEach'), ctx);
      if (node.fn) await callWithTimeout(node.fn, ctx, node.fn.length > 1);
      await Promise.all(node.pendingSubtests);
    } catch (e) {
      if (e instanceof N.ExitSignal) throw e;
      result.status = 'fail';
      result.error = errorInfo(e);
    }
    try { await runHooks(eachHooks(node, 'afterEach'), ctx); } catch (e) {
      if (e instanceof N.ExitSignal) throw e;
      if (result.status !== 'fail') { result.status = 'fail'; result.error = errorInfo(e); }
    }
    if (result.status === 'pass' && result.children.some(function (c) { return c.status === 'fail'; })) {
      result.status = 'fail';
      result.error = { name: 'Error', message: result.children.filter(function (c) { return c.status === 'fail'; }).length + ' subtest failed', stack: '', failureType: 'subtestsFailed' };
    }
    if (node.skipNow !== undefined && result.status === 'pass') { result.status = 'skip'; if (typeof node.skipNow === 'string') result.reason = node.skipNow; }
    if (node.opts.todo || node.todoNow !== undefined) { result.todo = true; if (result.status === 'pass') result.status = 'todo'; }
    if (node.diagnostics) result.diagnostics = node.diagnostics;
    result.durationMs = now() - started;
    return result;
  }

  async function runSuite(suite) {
    const started = now();
    const result = { kind: 'suite', name: suite.name, status: 'pass', durationMs: 0, children: [] };
    if (suite.opts.skip) { result.status = 'skip'; return result; }
    try {
      if (suite.result && typeof suite.result.then === 'function') await suite.result;
      await runHooks(suite.before, { name: suite.name });
      for (const child of suite.children) result.children.push(child.kind === 'suite' ? await runSuite(child) : await runTest(child));
      await runHooks(suite.after, { name: suite.name });
    } catch (e) {
      if (e instanceof N.ExitSignal) throw e;
      result.status = 'fail';
      result.error = errorInfo(e);
    }
    if (result.status === 'pass' && result.children.some(function (c) { return c.status === 'fail'; })) {
      result.status = 'fail';
      result.error = { name: 'Error', message: result.children.filter(function (c) { return c.status === 'fail'; }).length + ' subtest failed', stack: '', failureType: 'subtestsFailed' };
    }
    result.durationMs = now() - started;
    return result;
  }

  N.runTests = async function () {
    const r = await runSuite(root);
    N.call('testResults', { children: r.children, error: r.status === 'fail' && r.children.every(function (c) { return c.status !== 'fail'; }) ? r.error : undefined });
  };

  /** node:test's mock.fn / mock.method: calls are recorded in fn.mock.calls, as in Node. */
  const restorers = [];
  function mockFn(original, impl) {
    let implementation = impl || original || function () {};
    const calls = [];
    const fn = function () {
      const args = Array.prototype.slice.call(arguments);
      const call = { arguments: args, this: this, result: undefined, error: undefined };
      calls.push(call);
      try { call.result = implementation.apply(this, args); return call.result; } catch (e) { call.error = e; throw e; }
    };
    fn.mock = {
      calls: calls,
      callCount: function () { return calls.length; },
      mockImplementation: function (f) { implementation = f; },
      resetCalls: function () { calls.length = 0; },
      restore: function () {},
    };
    return fn;
  }
  function unsupportedMock() {
    throw N.codedError(Error, 'ERR_SANDBOX_UNSUPPORTED', 'node:test mock.timers is not available in this sandbox; pass the clock in as a parameter instead');
  }
  const mock = {
    fn: function (original, impl) { return mockFn(original, impl); },
    method: function (obj, name, impl) {
      const original = obj[name];
      const fn = mockFn(original, impl);
      fn.mock.restore = function () { obj[name] = original; };
      restorers.push(fn.mock.restore);
      obj[name] = fn;
      return fn;
    },
    restoreAll: function () { while (restorers.length) restorers.pop()(); },
    reset: function () { while (restorers.length) restorers.pop()(); },
    timers: { enable: unsupportedMock },
  };

  N.define('test', function () {
    const api = test;
    api.test = test;
    api.it = test;
    api.describe = describe;
    api.suite = describe;
    api.before = hook('before');
    api.after = hook('after');
    api.beforeEach = hook('beforeEach');
    api.afterEach = hook('afterEach');
    api.mock = mock;
    api.default = api;
    return api;
  });
})(globalThis.__node);
`;
