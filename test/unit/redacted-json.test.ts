/**
 * `redactedJson` (session/redact.ts): the session file's records redacted on their JSON text
 * instead of through a deep copy — it must give exactly what the deep copy gives, including
 * where a secret or a key shape sits next to an escape sequence, in a key, or looks like a number
 * (those secrets take the deep copy).
 */
import { describe, expect, it } from 'vitest';
import { redactDeep, redactedJson } from '../../src/harness/session/redact.ts';

const KEY = 'sk-ant-api03-abcDEF_123-xyz';
const values: unknown[] = [
  { type: 'model.request', request: { messages: [{ role: 'user', content: [{ type: 'text', text: `my key is ${KEY}\nand again:${KEY}` }] }], system: 'quote " and \\ and \t tab' } },
  { [KEY]: 'a key as a key', nested: [[`"${KEY}"`], { 'sk-ant-other_KEY-9': 1 }], n: 12345678, t: true, z: null },
  { text: `line\nsk-ant-after-newline\u0001sk-ant-after-control é \ud83d\ude00 ${KEY.slice(0, 10)}` },
  ['sk-ant-', 'sk-ant-[redacted]', `\\${KEY}`, `\\n${KEY}`, undefined, 1e21, -0.5],
];
const secrets: string[][] = [
  [],
  [KEY],
  ['  ' + KEY + '\n'],
  ['Xy_secret-value-77', KEY],
  // Not plain: these take the deep copy (a digits-only secret would match inside a number, one
  // starting with "n" inside an escape, one with a space or quote anywhere).
  ['12345678'],
  ['nsk-ant-after'],
  ['tab" and'],
  ['after newline'],
];

describe('redactedJson', () => {
  it('is JSON.stringify(redactDeep(value)) for every value and secret list', () => {
    for (const v of values) for (const s of secrets) expect(redactedJson(v, s), JSON.stringify(s)).toBe(JSON.stringify(redactDeep(v, s)));
  });

  it('leaves a number alone that a digits-only secret would match in the text', () => {
    expect(JSON.parse(redactedJson({ n: 12345678 }, ['12345678']))).toEqual({ n: 12345678 });
  });

  it('redacts a secret next to an escape without breaking the escape', () => {
    const line = redactedJson({ text: `a\nbcdefghij` }, ['nbcdefghij']);
    expect(JSON.parse(line)).toEqual({ text: 'a\nbcdefghij' });
  });
});
