/**
 * Model settings. The API key lives in memory; it is written to localStorage only while
 * "remember key" is ticked, and removed from it the moment the box is cleared. It is never
 * logged and never put into a trace, scenario or export.
 */
import { connectLockProblem, lockConnectTo } from '../../security/connect-lock.svelte.ts';

export type ModelMode = 'scripted' | 'anthropic';

const KEY_STORE = 'hp.apiKey';
const PREFS_STORE = 'hp.modelPrefs';

export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_MODEL_ID = 'claude-sonnet-5-5';

/**
 * How a scripted reply reaches the page: `streamed`, event by event a few milliseconds apart as a
 * model streams (what a learner watching a run should see), or `instant`, every event as soon as it
 * is pulled, without the 12 ms pause before each (for re-running a lesson, or a test suite).
 */
export type ReplayPace = 'streamed' | 'instant';

/** The gap between two events of a streamed scripted reply. */
export const SCRIPTED_CHUNK_DELAY_MS = 12;

/**
 * `teamsLive`: a live run also gets the team tools (teammates, messages, task claiming), not only
 * scenarios that opt in. `memoryByModel`: after a live run the model is asked what to remember
 * (one bounded extra call). Both off by default: each costs the user's own money.
 */
type Prefs = { mode: ModelMode; baseURL: string; modelId: string; teamsLive: boolean; memoryByModel: boolean; replayPace: ReplayPace };

/**
 * What each saved preference may hold. The record is flat and read before the first paint (the mode
 * decides the header, and a live page locks its connect-src at once), so it is checked by this table
 * rather than a schema library the first screen would have to load; `settings-prefs.test.ts` checks
 * that it accepts and refuses exactly what the equivalent zod schema does. Unknown keys are dropped.
 */
export const PREF_FIELDS = {
  mode: ['scripted', 'anthropic'],
  baseURL: 'string',
  modelId: 'string',
  teamsLive: 'boolean',
  memoryByModel: 'boolean',
  replayPace: ['streamed', 'instant'],
} as const satisfies Record<keyof Prefs, 'string' | 'boolean' | readonly string[]>;

/** The known fields of a parsed record, or every problem in it (path: what was expected). */
function checkPrefs(json: unknown): { ok: true; prefs: Partial<Prefs> } | { ok: false; problem: string } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { ok: false, problem: '(root): expected an object' };
  const prefs: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, kind] of Object.entries(PREF_FIELDS) as [keyof Prefs, 'string' | 'boolean' | readonly string[]][]) {
    const value = (json as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (typeof kind === 'string' ? typeof value === kind : kind.includes(value as string)) prefs[key] = value;
    else problems.push(`${key}: expected ${typeof kind === 'string' ? `a ${kind}` : `one of ${kind.map((k) => `"${k}"`).join(', ')}`}`);
  }
  return problems.length ? { ok: false, problem: problems.join('; ') } : { ok: true, prefs: prefs as Partial<Prefs> };
}

/**
 * The stored preferences, validated: anything that does not parse falls back to the defaults,
 * with a notice saying so (never a blank page because of a hand-edited or half-written record).
 */
export function readPrefs(storage: Pick<Storage, 'getItem'> = localStorage): { prefs: Partial<Prefs>; notice: string | null } {
  let raw: string | null;
  try {
    raw = storage.getItem(PREFS_STORE);
  } catch {
    return { prefs: {}, notice: null };
  }
  if (raw === null) return { prefs: {}, notice: null };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { prefs: {}, notice: 'The saved model preferences were not readable (not JSON), so the defaults are used. Change any setting to save them afresh.' };
  }
  const r = checkPrefs(json);
  if (!r.ok) return { prefs: {}, notice: `The saved model preferences were damaged (${r.problem}), so the defaults are used. Change any setting to save them afresh.` };
  return { prefs: r.prefs, notice: null };
}

export class ModelSettings {
  mode = $state<ModelMode>('scripted');
  apiKey = $state('');
  rememberKey = $state(false);
  baseURL = $state(DEFAULT_BASE_URL);
  modelId = $state(DEFAULT_MODEL_ID);
  teamsLive = $state(false);
  memoryByModel = $state(false);
  replayPace = $state<ReplayPace>('streamed');
  /** Why the saved preferences were not used (they did not parse), or null. */
  prefsNotice = $state<string | null>(null);

  constructor() {
    const { prefs, notice } = readPrefs();
    this.prefsNotice = notice;
    if (prefs.mode === 'anthropic' || prefs.mode === 'scripted') this.mode = prefs.mode;
    if (prefs.baseURL) this.baseURL = prefs.baseURL;
    if (prefs.modelId) this.modelId = prefs.modelId;
    this.teamsLive = prefs.teamsLive === true;
    this.memoryByModel = prefs.memoryByModel === true;
    if (prefs.replayPace) this.replayPace = prefs.replayPace;
    // A page that starts in live mode narrows connect-src to its model endpoint at once.
    if (this.live) lockConnectTo(this.baseURL);
    const stored = localStorage.getItem(KEY_STORE);
    if (stored?.trim()) {
      // Keys pasted with a newline or spaces around them are trimmed everywhere (sent, stored, redacted).
      this.apiKey = stored.trim();
      this.rememberKey = true;
    }
  }

  /** Persist the non-secret preferences and, only if asked, the key. Call after any edit. */
  save(): void {
    const prefs: Prefs = { mode: this.mode, baseURL: this.baseURL, modelId: this.modelId, teamsLive: this.teamsLive, memoryByModel: this.memoryByModel, replayPace: this.replayPace };
    localStorage.setItem(PREFS_STORE, JSON.stringify(prefs));
    this.prefsNotice = null;
    if (this.rememberKey && this.apiKey.trim()) localStorage.setItem(KEY_STORE, this.apiKey.trim());
    else localStorage.removeItem(KEY_STORE);
  }

  /** The gap between the events of a scripted reply, as the replay pace says. */
  get scriptedChunkDelayMs(): number {
    return this.replayPace === 'instant' ? 0 : SCRIPTED_CHUNK_DELAY_MS;
  }

  get live(): boolean {
    return this.mode === 'anthropic';
  }

  /** Why a live run cannot start, or null when it can. */
  get liveProblem(): string | null {
    if (!this.apiKey.trim()) return 'No API key: open Settings, paste your Anthropic API key, then send again.';
    if (!URL.canParse(this.baseURL.trim())) {
      return `Base URL "${this.baseURL}" is not a URL: fix it in Settings (default ${DEFAULT_BASE_URL}).`;
    }
    const locked = connectLockProblem(this.baseURL);
    if (locked) return locked;
    if (!this.modelId.trim()) return 'No model id: set one in Settings (e.g. claude-sonnet-5-5).';
    return null;
  }
}
