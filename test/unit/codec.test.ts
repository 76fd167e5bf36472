import { gunzipSync } from 'node:zlib';
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { decodeScenarioLink, encodeScenarioLink, MAX_DECODED_BYTES, MAX_ENCODED_CHARS, scenarioLinkUrl } from '../../src/scenarios/codec.ts';
import { builtinScenarios } from '../../src/scenarios/library/index.ts';
import { parseScenario, type Scenario } from '../../src/scenarios/schema.ts';

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
const gz = (text: string) => b64url(gzipSync(strToU8(text)));

function scenario(extra: Partial<Scenario['settings']> = {}): Scenario {
  const r = parseScenario({
    id: 'hooked',
    title: 'Hooked — ünïcødé ✓',
    prompt: 'do it',
    files: { 'a.txt': 'hello\n' },
    model: { kind: 'scripted', turns: [{ content: [{ type: 'text', text: 'done' }] }] },
    settings: {
      maxTurns: 5,
      maxTokens: 1000,
      sandbox: 'just-bash',
      permissions: { allow: ['Bash(ls *)'], deny: ['Read(./.env)'] },
      hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'echo hi > hooked.txt' }] }] },
      ...extra,
    },
  });
  if (!r.ok) throw new Error(r.errors.join('\n'));
  return r.scenario;
}

describe('share-link codec', () => {
  it('round-trips a scenario exactly', () => {
    const s = scenario();
    const payload = encodeScenarioLink(s);
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    const back = decodeScenarioLink(payload);
    expect(back).toEqual({ ok: true, scenario: s });
  });

  it('round-trips every built-in scenario, and accepts a leading #s=', () => {
    for (const s of builtinScenarios) {
      const back = decodeScenarioLink(`#s=${encodeScenarioLink(s)}`);
      expect(back.ok && back.scenario).toEqual(s);
    }
  });

  it('builds a URL on the page, replacing any existing fragment', () => {
    const url = scenarioLinkUrl('http://127.0.0.1:5173/app/#s=old', scenario());
    expect(url.startsWith('http://127.0.0.1:5173/app/#s=')).toBe(true);
    expect(decodeScenarioLink(new URL(url).hash).ok).toBe(true);
  });

  it('never carries an API key: only scenario fields travel', () => {
    const key = 'sk-ant-api03-SECRET-never-in-a-link';
    // A key smuggled onto the object (a bug elsewhere) must not ride along.
    const s = { ...scenario(), apiKey: key, model: { ...scenario().model } } as Scenario & { apiKey: string };
    const payload = encodeScenarioLink(s);
    const json = gunzipSync(Buffer.from(payload, 'base64url')).toString('utf8');
    expect(json).not.toContain(key);
    expect(json).not.toMatch(/apiKey|api_key|sk-ant/i);
    // And the schema itself has nowhere for a key: a link that adds one is rejected.
    const withKey = gz(JSON.stringify({ ...JSON.parse(json), apiKey: key }));
    const r = decodeScenarioLink(withKey);
    expect(r.ok).toBe(false);
  });

  const valid = JSON.stringify(JSON.parse(JSON.stringify(scenario())));
  const hostile: [string, string, RegExp][] = [
    ['empty', '', /no scenario/],
    ['only the prefix', '#s=', /no scenario/],
    ['not base64url (spaces, +, /)', 'abc def+/==', /not base64url/],
    ['base64url of an impossible length', 'A', /not base64url/],
    ['random bytes, not gzip', b64url(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /not valid gzip/],
    ['plain JSON base64url (no gzip)', b64url(strToU8(valid)), /not valid gzip/],
    ['gzip cut short', encodeScenarioLink(scenario()).slice(0, 40), /gzip|garbled/],
    ['gzip of text that is not JSON', gz('hello, {not json'), /not JSON/],
    ['gzip of bytes that are not UTF-8', b64url(gzipSync(new Uint8Array([0xff, 0xfe, 0xc3, 0x28]))), /not UTF-8/],
    ['gzip of JSON that is not a scenario', gz('[1,2,3]'), /invalid/],
    ['a scenario with a file outside the workdir', gz(valid.replace('"a.txt"', '"../../etc/passwd"')), /invalid.*files/],
    ['a scenario with an unknown hook type', gz(valid.replace('"type":"command"', '"type":"webhook"')), /invalid.*hook type/],
    ['a scenario with an unknown top-level key', gz(JSON.stringify({ ...JSON.parse(valid), run: 'rm -rf /' })), /invalid/],
    ['a payload over the encoded limit', 'A'.repeat(MAX_ENCODED_CHARS + 4), /too long/],
    ['a zip bomb (small link, huge JSON)', b64url(gzipSync(new Uint8Array(MAX_DECODED_BYTES * 40).fill(0x20), { level: 9 })), /too large/],
    ['null JSON', gz('null'), /invalid/],
  ];

  it.each(hostile)('rejects %s with a clear message, without throwing', (_name, payload, message) => {
    let r: ReturnType<typeof decodeScenarioLink> | undefined;
    expect(() => (r = decodeScenarioLink(payload))).not.toThrow();
    expect(r?.ok).toBe(false);
    if (r && !r.ok) {
      expect(r.error).toMatch(message);
      expect(r.error.length).toBeLessThan(600);
    }
  });

  it('accepts a large but legal scenario just under the limits', () => {
    const s = scenario();
    s.files['big.txt'] = 'x'.repeat(300 * 1024);
    const r = decodeScenarioLink(encodeScenarioLink(s));
    expect(r.ok).toBe(true);
  });
});
