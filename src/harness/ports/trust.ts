/**
 * The trust port: `TrustStore` remembers which actionable settings content the user trusted.
 * Re-exported by `../ports.ts`.
 */

/**
 * Which actionable settings content (hooks, allow rules, permissive modes) the user has trusted,
 * keyed by the SHA-256 of that content (`trustKey` in `harness/trust/`): a changed link or file
 * has a new key and is asked about again. Implementations: in-memory (tests), browser storage (UI).
 */
export interface TrustStore {
  isTrusted(key: string): Promise<boolean>;
  /** Records trust; `label` says what was trusted (e.g. the scenario title), for a "trusted items" list. */
  trust(key: string, label: string): Promise<void>;
  revoke(key: string): Promise<void>;
}
