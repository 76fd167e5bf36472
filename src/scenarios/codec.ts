/**
 * Share links: a scenario as `#s=<payload>`, where the payload is its JSON, gzipped (fflate) and
 * base64url-encoded. Decoding is hostile-input parsing: size limits before and after
 * decompression, then JSON, then the scenario schema — every failure is a message, never a throw.
 *
 * A link carries only the scenario's own fields. There is no API key in a scenario (the key lives
 * in the model settings), and encoding copies the known fields by name so nothing else can ride
 * along.
 */
import { gunzipSync, gzipSync, strToU8 } from 'fflate';
import { migrateScenario } from './migrate.ts';
import { deeperThan, redactDeep } from '../harness/session/light.ts';
import { parseScenario, scenarioHeader, type Scenario } from './schema.ts';
import { scenarioV1Schema, type ScenarioV1 } from './schema-v1.ts';

/** Largest payload accepted, in characters of base64url. */
export const MAX_ENCODED_CHARS = 200 * 1024;
/** Largest decompressed JSON accepted, in bytes (checked while inflating, so a zip bomb stops early). */
export const MAX_DECODED_BYTES = 512 * 1024;
/**
 * Deepest JSON nesting accepted. A real scenario nests a dozen levels (a tool input in a turn);
 * a hostile one nested thousands deep would overflow the stack of everything that walks it later
 * (hashing for trust, saving the session, exporting).
 */
export const MAX_NESTING_DEPTH = 48;

/** Why a parsed document nests too deep, or null. Walks no deeper than the limit. */
export function nestingError(json: unknown, what: string): string | null {
  return deeperThan(json, MAX_NESTING_DEPTH)
    ? `${what} nests deeper than ${MAX_NESTING_DEPTH} levels of objects and arrays; no real scenario does. It was not opened.`
    : null;
}

export type DecodedLink = { ok: true; scenario: Scenario } | { ok: false; error: string };
/** A link decoded as v1 (a v0 link is migrated); `from` is the version the link was written in. */
export type DecodedLinkV1 = { ok: true; scenario: ScenarioV1; from: 0 | 1 } | { ok: false; error: string };

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  // Chunked so large payloads do not overflow the argument limit of String.fromCharCode.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** Only the fields of the scenario schema, by name: nothing else can ride along in a link. */
function linkFields(s: Scenario): Scenario {
  return {
    version: s.version,
    ...scenarioHeader(s),
    prompt: s.prompt,
    files: s.files,
    model: s.model,
    settings: s.settings,
  };
}

/** v1 fields by name, re-validated by the schema (strict): an extra field (a key) is dropped, never sent. */
function linkFieldsV1(s: ScenarioV1): ScenarioV1 {
  return scenarioV1Schema.parse({
    version: 1,
    ...scenarioHeader(s),
    prompts: s.prompts,
    files: s.files,
    skills: s.skills,
    memoryFiles: s.memoryFiles,
    model: s.model,
    settings: s.settings,
    breakpoints: s.breakpoints,
    steps: s.steps,
    questions: s.questions,
    ...(s.lesson ? { lesson: s.lesson } : {}),
  });
}

const pack = (doc: unknown) => toBase64Url(gzipSync(strToU8(JSON.stringify(doc)), { level: 9, mtime: 0 }));

/** The payload for `#s=`: JSON → gzip → base64url. */
export function encodeScenarioLink(scenario: Scenario): string {
  return pack(linkFields(scenario));
}

/** The payload for `#s=` of a v1 scenario (what the app shares: prompts, lessons, recordings). */
export function encodeScenarioLinkV1(scenario: ScenarioV1): string {
  return pack(linkFieldsV1(scenario));
}

const kb = (n: number) => `${Math.round(n / 1024)} KB`;

/**
 * A payload (with or without a leading `#s=` / `s=`) → the scenario it carries, or why not.
 * Never throws.
 */
export function decodeScenarioLink(fragment: string): DecodedLink {
  try {
    return decode(fragment);
  } catch (e) {
    // Defence in depth: every step below handles its own failures; this only catches the unforeseen.
    return { ok: false, error: `The link could not be read (${e instanceof Error ? e.message : String(e)}).` };
  }
}

/**
 * A payload → the scenario it carries as v1 (v0 and v1 links both open), or why not. Same limits
 * and checks as `decodeScenarioLink`; never throws.
 */
export function decodeScenarioLinkV1(fragment: string): DecodedLinkV1 {
  try {
    const r = decodeJson(fragment);
    if (!r.ok) return r;
    const m = migrateScenario(r.json);
    if (!m.ok) return { ok: false, error: invalid(m.errors) };
    return { ok: true, scenario: m.scenario, from: m.from };
  } catch (e) {
    return { ok: false, error: `The link could not be read (${e instanceof Error ? e.message : String(e)}).` };
  }
}

function invalid(errors: string[]): string {
  const shown = errors.slice(0, 5).join('; ');
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
  return `The link's scenario is invalid: ${shown}${more}.`;
}

function decode(fragment: string): DecodedLink {
  const r = decodeJson(fragment);
  if (!r.ok) return r;
  const parsed = parseScenario(r.json);
  if (!parsed.ok) return { ok: false, error: invalid(parsed.errors) };
  return { ok: true, scenario: parsed.scenario };
}

/** Size limits, base64url, gzip (bounded), UTF-8, JSON: the untyped document, or why not. */
function decodeJson(fragment: string): { ok: true; json: unknown } | { ok: false; error: string } {
  const payload = fragment.replace(/^#/, '').replace(/^s=/, '').trim();
  if (payload === '') return { ok: false, error: 'The link carries no scenario (the part after #s= is empty).' };
  if (payload.length > MAX_ENCODED_CHARS) {
    return { ok: false, error: `The link is too long (${kb(payload.length)}; at most ${kb(MAX_ENCODED_CHARS)}). Share the scenario as a file instead.` };
  }
  const bytes = fromBase64Url(payload);
  if (!bytes) return { ok: false, error: 'The link is garbled: the part after #s= is not base64url text. Was it cut or edited?' };
  let raw: Uint8Array;
  try {
    // A fixed output buffer one byte larger than the limit: inflation stops there, so a
    // small link that expands to gigabytes costs at most this much memory.
    raw = gunzipSync(bytes, { out: new Uint8Array(MAX_DECODED_BYTES + 1) });
  } catch (e) {
    return { ok: false, error: `The link is garbled: its data is not valid gzip (${e instanceof Error ? e.message : String(e)}). Was it cut short?` };
  }
  if (raw.length > MAX_DECODED_BYTES) {
    return { ok: false, error: `The scenario in the link is too large (more than ${kb(MAX_DECODED_BYTES)} unpacked).` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { ok: false, error: 'The link is garbled: its data is not UTF-8 text.' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `The link is garbled: its data is not JSON (${e instanceof Error ? e.message : String(e)}).` };
  }
  const deep = nestingError(json, 'The scenario in the link');
  if (deep) return { ok: false, error: deep };
  return { ok: true, json };
}

/**
 * The share URL for a scenario (v0 or v1), on the page at `base` (origin + path). Every string is
 * redacted first (`secrets`: the API key in use; anything key-shaped always): a kept golden case or
 * a recorded turn may hold the key, and a link must never carry it.
 */
export function scenarioLinkUrl(base: string, scenario: Scenario | ScenarioV1, secrets: readonly string[] = []): string {
  const clean = redactDeep(scenario, secrets);
  const payload = clean.version === 1 ? encodeScenarioLinkV1(clean) : encodeScenarioLink(clean);
  return `${base.replace(/#.*$/, '')}#s=${payload}`;
}
