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

/** Whether a text still holds anything key-shaped (a last check before text leaves the page). */
export function containsKeyShape(text: string): boolean {
  return /sk-ant-(?!\[redacted\])[A-Za-z0-9_-]+/.test(text);
}
