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

type Prefs = { mode: ModelMode; baseURL: string; modelId: string };

function readPrefs(): Partial<Prefs> {
  try {
    return JSON.parse(localStorage.getItem(PREFS_STORE) ?? '{}') as Partial<Prefs>;
  } catch {
    return {};
  }
}

export class ModelSettings {
  mode = $state<ModelMode>('scripted');
  apiKey = $state('');
  rememberKey = $state(false);
  baseURL = $state(DEFAULT_BASE_URL);
  modelId = $state(DEFAULT_MODEL_ID);

  constructor() {
    const prefs = readPrefs();
    if (prefs.mode === 'anthropic' || prefs.mode === 'scripted') this.mode = prefs.mode;
    if (prefs.baseURL) this.baseURL = prefs.baseURL;
    if (prefs.modelId) this.modelId = prefs.modelId;
    // A page that starts in live mode narrows connect-src to its model endpoint at once.
    if (this.live) lockConnectTo(this.baseURL);
    const stored = localStorage.getItem(KEY_STORE);
    if (stored) {
      this.apiKey = stored;
      this.rememberKey = true;
    }
  }

  /** Persist the non-secret preferences and, only if asked, the key. Call after any edit. */
  save(): void {
    const prefs: Prefs = { mode: this.mode, baseURL: this.baseURL, modelId: this.modelId };
    localStorage.setItem(PREFS_STORE, JSON.stringify(prefs));
    if (this.rememberKey && this.apiKey) localStorage.setItem(KEY_STORE, this.apiKey);
    else localStorage.removeItem(KEY_STORE);
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
