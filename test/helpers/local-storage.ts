import { vi } from 'vitest';

/**
 * An empty in-memory `localStorage` on `globalThis`, for page state that reads the browser's saved
 * preferences. A file that calls this patches a global: list it in `ISOLATED` (vitest.config.ts).
 */
export function stubLocalStorage(): void {
  const items = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  });
}
