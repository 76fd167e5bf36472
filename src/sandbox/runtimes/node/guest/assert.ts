/**
 * Guest source: `node:assert` and `node:assert/strict`, with Node's AssertionError fields
 * (code ERR_ASSERTION, actual, expected, operator) and messages close to Node's, which the
 * test reporter prints. See core.ts for the rules guest sources follow.
 */
export const ASSERT_SOURCE = String.raw`
(function (N) {
  'use strict';
  function deepEqual(a, b, strict, memo) {
    if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
    if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b);
    if (a instanceof Error && b instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
    memo = memo || [];
    for (const pair of memo) if (pair[0] === a && pair[1] === b) return true;
    memo.push([a, b]);
    if (a instanceof Map || b instanceof Map) {
      if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
      for (const entry of a) if (!b.has(entry[0]) || !deepEqual(entry[1], b.get(entry[0]), strict, memo)) return false;
      return true;
    }
    if (a instanceof Set || b instanceof Set) {
      if (!(a instanceof Set && b instanceof Set) || a.size !== b.size) return false;
      for (const v of a) {
        if (b.has(v)) continue;
        let found = false;
        for (const w of b) if (deepEqual(v, w, strict, memo)) { found = true; break; }
        if (!found) return false;
      }
      return true;
    }
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) {
      if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
      if (!deepEqual(a[k], b[k], strict, memo)) return false;
    }
    return true;
  }
  N.deepEqual = function (a, b, strict) { return deepEqual(a, b, strict); };

  class AssertionError extends Error {
    constructor(options) {
      super(options.message);
      this.generatedMessage = !options.userMessage;
      this.code = 'ERR_ASSERTION';
      this.actual = options.actual;
      this.expected = options.expected;
      this.operator = options.operator;
    }
  }
  Object.defineProperty(AssertionError.prototype, 'name', { value: 'AssertionError', configurable: true, writable: true });

  function lines(v) { return N.inspect(v, { depth: 1000 }).split('\n'); }
  function diff(actual, expected) {
    const a = lines(actual), e = lines(expected);
    const out = ['+ actual - expected', ''];
    if (a.length === 1 && e.length === 1) return out.concat(['+ ' + a[0], '- ' + e[0]]).join('\n');
    const n = Math.max(a.length, e.length);
    for (let i = 0; i < n; i++) {
      if (a[i] === e[i]) out.push('  ' + a[i]);
      else {
        if (a[i] !== undefined) out.push('+ ' + a[i]);
        if (e[i] !== undefined) out.push('- ' + e[i]);
      }
    }
    return out.join('\n');
  }

  function fail(actual, expected, message, operator, generated) {
    if (message instanceof Error) throw message;
    throw new AssertionError({ message: message !== undefined ? message : generated, userMessage: message !== undefined, actual: actual, expected: expected, operator: operator });
  }

  function build(strict) {
    function ok(value, message) {
      if (!value) fail(value, true, message, '==', arguments.length === 0 ? 'No value argument passed to ' + 'assert.ok()' : 'The expression evaluated to a falsy value:\n\n  assert(' + N.inspect(value) + ')\n');
    }
    const assert = function (value, message) { ok.apply(null, arguments.length ? [value, message] : []); };
    assert.ok = ok;
    assert.AssertionError = AssertionError;
    assert.fail = function (message) {
      fail(undefined, undefined, message === undefined ? 'Failed' : message, 'fail', 'Failed');
    };
    assert.strictEqual = function (actual, expected, message) {
      if (Object.is(actual, expected)) return;
      const same = N.inspect(actual) === N.inspect(expected);
      fail(actual, expected, message, 'strictEqual', same
        ? 'Values have same structure but are not reference-equal:\n\n' + N.inspect(actual) + '\n'
        : typeof actual === 'object' && actual !== null || typeof expected === 'object' && expected !== null
          ? 'Expected values to be strictly equal:\n' + diff(actual, expected) + '\n'
          : 'Expected values to be strictly equal:\n\n' + N.inspect(actual) + ' !== ' + N.inspect(expected) + '\n');
    };
    assert.notStrictEqual = function (actual, expected, message) {
      if (!Object.is(actual, expected)) return;
      fail(actual, expected, message, 'notStrictEqual', 'Expected "actual" to be strictly unequal to: ' + N.inspect(expected));
    };
    assert.deepStrictEqual = function (actual, expected, message) {
      if (deepEqual(actual, expected, true)) return;
      fail(actual, expected, message, 'deepStrictEqual', 'Expected values to be strictly deep-equal:\n' + diff(actual, expected) + '\n');
    };
    assert.notDeepStrictEqual = function (actual, expected, message) {
      if (!deepEqual(actual, expected, true)) return;
      fail(actual, expected, message, 'notDeepStrictEqual', 'Expected "actual" not to be strictly deep-equal to: ' + N.inspect(expected));
    };
    assert.partialDeepStrictEqual = assert.deepStrictEqual;
    if (strict) {
      assert.equal = assert.strictEqual;
      assert.notEqual = assert.notStrictEqual;
      assert.deepEqual = assert.deepStrictEqual;
      assert.notDeepEqual = assert.notDeepStrictEqual;
    } else {
      assert.equal = function (actual, expected, message) {
        if (actual == expected || (actual !== actual && expected !== expected)) return;
        fail(actual, expected, message, '==', N.inspect(actual) + ' == ' + N.inspect(expected));
      };
      assert.notEqual = function (actual, expected, message) {
        if (!(actual == expected)) return;
        fail(actual, expected, message, '!=', N.inspect(actual) + ' != ' + N.inspect(expected));
      };
      assert.deepEqual = function (actual, expected, message) {
        if (deepEqual(actual, expected, false)) return;
        fail(actual, expected, message, 'deepEqual', 'Expected values to be loosely deep-equal:\n\n' + N.inspect(actual) + '\n\nshould loosely deep-equal\n\n' + N.inspect(expected));
      };
      assert.notDeepEqual = function (actual, expected, message) {
        if (!deepEqual(actual, expected, false)) return;
        fail(actual, expected, message, 'notDeepEqual', '"actual" should not loosely deep-equal "expected"');
      };
    }

    function matches(err, expected, message, operator) {
      if (expected === undefined) return;
      if (typeof expected === 'function') {
        if (expected.prototype !== undefined && err instanceof expected) return;
        if (Error.isPrototypeOf(expected) || expected === Error) {
          fail(err, expected, message, operator, 'The error is expected to be an instance of "' + expected.name + '". Received "' + (err && err.constructor ? err.constructor.name : typeof err) + '"\n\nError message:\n\n' + (err && err.message));
        }
        if (expected.call({}, err) === true) return;
        fail(err, expected, message, operator, 'The ' + (expected.name ? '"' + expected.name + '" ' : '') + 'validation function is expected to return "true". Received ' + N.inspect(expected.call({}, err)));
      }
      if (expected instanceof RegExp) {
        if (expected.test(String(err))) return;
        fail(err, expected, message, operator, 'The input did not match the regular expression ' + String(expected) + '. Input:\n\n' + N.inspect(String(err)) + '\n');
      }
      if (typeof expected === 'object' && expected !== null) {
        for (const k of Object.keys(expected)) {
          const want = expected[k], got = err == null ? undefined : err[k];
          const same = want instanceof RegExp && typeof got === 'string' ? want.test(got) : deepEqual(got, want, true);
          if (!same) fail(err, expected, message, operator, 'Expected values to be strictly deep-equal:\n' + diff(got, want) + '\n(property ' + JSON.stringify(k) + ')');
        }
      }
    }
    function splitArgs(expected, message) {
      if (typeof expected === 'string') return [undefined, expected];
      return [expected, message];
    }
    assert.throws = function (fn, expected, message) {
      const a = splitArgs(expected, message);
      let threw = false, err;
      try { fn(); } catch (e) { threw = true; err = e; }
      if (!threw) fail(undefined, a[0], a[1], 'throws', 'Missing expected exception' + (a[0] && a[0].name ? ' (' + a[0].name + ').' : '.'));
      matches(err, a[0], a[1], 'throws');
    };
    assert.doesNotThrow = function (fn, expected, message) {
      try { fn(); } catch (e) {
        fail(e, expected, typeof expected === 'string' ? expected : message, 'doesNotThrow', 'Got unwanted exception.\nActual message: "' + (e && e.message) + '"');
      }
    };
    assert.rejects = async function (promiseOrFn, expected, message) {
      const a = splitArgs(expected, message);
      let threw = false, err;
      try { await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn); } catch (e) { threw = true; err = e; }
      if (!threw) fail(undefined, a[0], a[1], 'rejects', 'Missing expected rejection' + (a[0] && a[0].name ? ' (' + a[0].name + ').' : '.'));
      matches(err, a[0], a[1], 'rejects');
    };
    assert.doesNotReject = async function (promiseOrFn, expected, message) {
      try { await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn); } catch (e) {
        fail(e, expected, typeof expected === 'string' ? expected : message, 'doesNotReject', 'Got unwanted rejection.\nActual message: "' + (e && e.message) + '"');
      }
    };
    assert.match = function (string, regexp, message) {
      if (typeof string === 'string' && regexp.test(string)) return;
      fail(string, regexp, message, 'match', typeof string !== 'string'
        ? 'The "string" argument must be of type string. Received type ' + typeof string + ' (' + N.inspect(string) + ')'
        : 'The input did not match the regular expression ' + String(regexp) + '. Input:\n\n' + N.inspect(string) + '\n');
    };
    assert.doesNotMatch = function (string, regexp, message) {
      if (typeof string === 'string' && !regexp.test(string)) return;
      fail(string, regexp, message, 'doesNotMatch', 'The input was expected to not match the regular expression ' + String(regexp) + '. Input:\n\n' + N.inspect(string) + '\n');
    };
    assert.ifError = function (value) {
      if (value === null || value === undefined) return;
      fail(value, null, undefined, 'ifError', 'ifError got unwanted exception: ' + (value && value.message !== undefined ? value.message : N.inspect(value)));
    };
    return assert;
  }
  const loose = build(false);
  const strictAssert = build(true);
  loose.strict = strictAssert;
  strictAssert.strict = strictAssert;
  N.define('assert', function () { return loose; });
  N.define('assert/strict', function () { return strictAssert; });
})(globalThis.__node);
`;
