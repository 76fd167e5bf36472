/**
 * A strict JSON checker that says WHERE the first error is. `JSON.parse` messages carry a
 * position in some engines and not others (Node 20: "Unexpected token ']' … is not valid JSON"),
 * so settings errors find the offset themselves.
 */

export type JsonProblem = { offset: number; message: string };

/** `null` when `text` is valid JSON; otherwise the first problem and its character offset. */
export function findJsonProblem(text: string): JsonProblem | null {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message } satisfies JsonProblem;
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const describe = () => {
    if (i >= text.length) return 'the end of the text';
    const c = text[i]!;
    return JSON.stringify(c) + (c === '/' || c === '#' ? ' (JSON has no comments)' : '');
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        const e = text[i + 1] ?? '';
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape in a string');
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e) || e === '') fail(`bad escape \\${e} in a string`);
        i += 2;
        continue;
      }
      if (text.charCodeAt(i) < 0x20) fail('a control character (e.g. a raw newline) inside a string');
      i++;
    }
    if (i >= text.length) fail('a string is not closed');
    i++;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') {
          const hint = text[i] === '}' ? ' (a trailing comma?)' : text[i] === "'" ? ' (JSON strings use double quotes)' : '';
          fail(`expected a "quoted" key, found ${describe()}${hint}`);
        }
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after the key, found ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}", found ${describe()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('a trailing comma before "]"');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]", found ${describe()}`);
      }
    }
    if (c === '"') return string();
    const lit = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(text.slice(i));
    if (lit) {
      i += lit[0].length;
      return;
    }
    fail(`unexpected ${describe()}${c === "'" ? ' (JSON strings use double quotes)' : ''}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the end of the document`);
    return null;
  } catch (e) {
    return e as JsonProblem;
  }
}
