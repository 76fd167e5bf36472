/**
 * Keeps API keys out of anything that leaves the page (exports, scenarios, recordings): every
 * string in a JSON value, keys included, is scanned for the given secrets and for anything shaped
 * like an Anthropic key. Defensive on purpose — a key can reach a log through a tool's output,
 * an echoed error body or a prompt the person pasted it into.
 */

const KEY_SHAPE = /sk-ant-[A-Za-z0-9_-]+/g;
export const REDACTED_KEY = 'sk-ant-[redacted]';

export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Short strings would blank out ordinary words; real keys are long. A key pasted with spaces or
  // a newline around it appears trimmed wherever it was used, so the trimmed form is what is looked for.
  for (const raw of secrets) {
    const s = raw.trim();
    if (s.length >= 8) out = out.split(s).join('[redacted]');
  }
  return out.replace(KEY_SHAPE, REDACTED_KEY);
}

/** A deep copy of a JSON value with every string redacted. */
export function redactDeep<T>(value: T, secrets: readonly string[] = []): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[redactText(k, secrets)] = walk(x);
      return out;
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * A secret whose every occurrence in `JSON.stringify` output is an occurrence in one of the
 * strings: only characters JSON never escapes and that cannot end a string (`[A-Za-z0-9_-]`, what
 * real keys are made of); not only number characters (`-0-9eE`), so it cannot lie in a number
 * (true, false and null are shorter than 8); and not starting with a character an escape sequence
 * continues with (`\n`, `\u00e9`: `bfnrtu` and hex digits), so it cannot start inside one.
 */
const PLAIN_SECRET = /^[A-Za-z0-9_-]{8,}$/;
const NUMBER_LIKE = /^[-0-9eE]+$/;
const ESCAPE_TAIL = /^[bfnrtuA-Fa-f0-9]/;
const plain = (s: string) => PLAIN_SECRET.test(s) && !NUMBER_LIKE.test(s) && !ESCAPE_TAIL.test(s);

/**
 * `JSON.stringify(redactDeep(value, secrets))` — the same record — without the deep copy: the
 * value's JSON text is redacted in one pass. Both redactions only ever match inside one JSON
 * string (a key shape starts with `sk-ant-` and stops at `"` or `\`; a plain secret, see above,
 * contains neither), and replace with text JSON does not escape, so redacting the text is
 * redacting each string. A session's `model.request` records hold the whole conversation, so the
 * runner writing one per turn made a full copy of it per turn (issue 23 §3's per-turn cost and
 * peak memory). Any other secret (spaces, quotes, only digits, …) takes the deep copy. Values
 * are plain JSON data, as every logged event is.
 */
export function redactedJson(value: unknown, secrets: readonly string[] = []): string {
  const used = secrets.map((s) => s.trim()).filter((s) => s.length >= 8);
  if (!used.every(plain)) return JSON.stringify(redactDeep(value, secrets));
  return redactText(JSON.stringify(value), used);
}

/** Whether a text still holds anything key-shaped (a last check before text leaves the page). */
export function containsKeyShape(text: string): boolean {
  return /sk-ant-(?!\[redacted\])[A-Za-z0-9_-]+/.test(text);
}
