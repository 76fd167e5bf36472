/**
 * Guest source, a section of the core closure (see core.ts): `util.inspect` and `util.format`,
 * as Node prints values. Not a program of its own: core.ts splices it into one function body,
 * where it uses `N` and leaves `inspect` / `format` for the sections after it.
 */
export const CORE_INSPECT = String.raw`
  // --- inspect / format ----------------------------------------------------------------
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

`;
