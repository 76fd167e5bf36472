/**
 * Settings → Hook endpoints: the origins the page may POST `type: "http"` hook events to. Only the
 * user adds one (never a settings file or a link); kept in localStorage; each added origin also
 * joins the page's connect lock (`allowConnectOrigin`), so the CSP lets the request out.
 */
import { allowConnectOrigin } from '../../security/connect-lock.svelte.ts';
import { originOfUrl } from './page-http-hook-client.ts';

const STORE = 'hp.hookEndpoints';

function read(storage: Pick<Storage, 'getItem'>): string[] {
  try {
    const v: unknown = JSON.parse(storage.getItem(STORE) ?? '[]');
    return Array.isArray(v) ? v.filter((o): o is string => typeof o === 'string' && originOfUrl(o) === o) : [];
  } catch {
    return [];
  }
}

export class HookEndpoints {
  origins = $state<string[]>([]);

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage) {
    this.origins = read(storage);
    for (const o of this.origins) allowConnectOrigin(o);
  }

  /** Allows the origin of `url`; returns why it cannot be (not http(s), the connect lock), or null. */
  add(url: string): string | null {
    const origin = originOfUrl(url);
    if (!origin) return `"${url}" is not an http(s) URL or origin.`;
    if (this.origins.includes(origin)) return null;
    const problem = allowConnectOrigin(origin);
    this.origins = [...this.origins, origin];
    this.save();
    return problem;
  }

  remove(origin: string): void {
    this.origins = this.origins.filter((o) => o !== origin);
    this.save();
  }

  private save(): void {
    try {
      this.storage.setItem(STORE, JSON.stringify(this.origins));
    } catch {
      // Private mode: the list lasts for this page only.
    }
  }
}

let shared: HookEndpoints | null = null;
/** The page's one list (Settings and the run controller read the same). */
export function hookEndpoints(): HookEndpoints {
  return (shared ??= new HookEndpoints());
}
