/**
 * The trust gate in the UI. A scenario that did not ship with the app (a share link, an imported
 * file) may carry hooks, allow rules or a permissive mode — in its settings or in its files
 * (`.claude/settings*.json`, `.mcp.json`; see `harness/trust/carriers.ts`). Until the user trusts exactly that
 * content in the dialog, it runs with `trusted: false` (no hooks, no allow rules, no permissive
 * mode; deny and ask rules still apply). Trust is remembered by the hash of the WHOLE document
 * (`documentKey`: files, prompts, recorded turns, settings, memory files, skills), so the same
 * link is not asked about twice, a changed byte asks again, and a different link that happens to
 * share the rules of a trusted one is asked about on its own.
 *
 * While the answer is unknown (`checking` or `asking`), nothing may run: the controller keeps
 * Run and Step disabled.
 */
import type { TrustStore } from '../../harness/ports.ts';
import { carriersAct, documentKey, type DocumentCarriers } from '../../harness/trust/light.ts';
import type { Scenario } from '../../scenarios/schema.ts';
import { documents, loadDocuments } from './documents.ts';

/** Where the scenario came from: only `builtin` ships with the app. */
export type ScenarioOrigin = 'builtin' | 'link' | 'import';

export type TrustStatus =
  /** Shipped with the app (or edited by the user from one): trusted. */
  | 'builtin'
  /** Working out whether the content is already trusted. */
  | 'checking'
  /** The dialog is open. */
  | 'asking'
  | 'trusted'
  | 'declined'
  /** From outside, but nothing in it acts (no hooks, allow rules or permissive mode). */
  | 'inert';

/** `carriers`: everything trusting would turn on — the scenario's settings and tools and what its files carry. */
export type TrustQuestion = { carriers: DocumentCarriers; key: string; label: string; origin: ScenarioOrigin };

export class TrustGate {
  status = $state<TrustStatus>('builtin');
  origin = $state<ScenarioOrigin>('builtin');
  question = $state.raw<TrustQuestion | null>(null);
  /** The document's trust key ('' until known, or for a built-in): memories it brings are tagged with it. */
  documentHash = $state('');
  private epoch = 0;

  /** The whole document last evaluated (what `documentHash` is the key of). */
  private document: unknown = null;

  constructor(private readonly store: TrustStore) {}

  /** Whether what the scenario brings applies (passed to prepareRun as `trusted`). */
  get trusted(): boolean {
    return this.status === 'builtin' || this.status === 'trusted';
  }

  /** The answer is not known yet: nothing may run. */
  get blocking(): boolean {
    return this.status === 'checking' || this.status === 'asking';
  }

  /**
   * Decide for a newly loaded scenario. Synchronously enters `checking` for outside scenarios,
   * so nothing can start before the answer; resolves once the status is final or the dialog is open.
   */
  async evaluate(scenario: Scenario, origin: ScenarioOrigin, document: unknown = scenario): Promise<void> {
    const epoch = ++this.epoch;
    this.origin = origin;
    this.question = null;
    this.documentHash = '';
    if (origin === 'builtin') {
      this.status = 'builtin';
      return;
    }
    this.status = 'checking';
    this.document = document;
    let key: string;
    let known = false;
    try {
      key = await documentKey(document);
      known = await this.store.isTrusted(key);
    } catch {
      // No hash (no WebCrypto): ask every time, never assume trust.
      key = '';
    }
    // The carriers are read by parsing the document's settings files (yaml, RE2, zod: loaded on demand).
    // If they cannot load, nothing in the document acts (declined); "Trust…" tries again.
    const scenarioCarriers = await carrierReader().catch(() => null);
    if (epoch !== this.epoch) return;
    this.documentHash = key;
    if (!scenarioCarriers) {
      this.status = 'declined';
      return;
    }
    const carriers = scenarioCarriers(scenario);
    if (!carriersAct(carriers)) {
      this.status = 'inert';
      return;
    }
    if (known) {
      this.status = 'trusted';
      return;
    }
    this.question = { carriers, key, label: scenario.title, origin };
    this.status = 'asking';
  }

  /** The user's answer in the dialog. */
  async answer(trust: boolean): Promise<void> {
    const q = this.question;
    if (!q || this.status !== 'asking') return;
    this.question = null;
    this.status = trust ? 'trusted' : 'declined';
    if (trust && q.key) await this.store.trust(q.key, q.label).catch(() => {});
  }

  /** Open the dialog again for a declined scenario (to trust it after all). */
  async reconsider(scenario: Scenario): Promise<void> {
    if (this.status !== 'declined') return;
    const scenarioCarriers = await carrierReader().catch(() => null);
    if (!scenarioCarriers) return;
    const carriers = scenarioCarriers(scenario);
    const key = await documentKey(this.document ?? scenario).catch(() => '');
    this.question = { carriers, key, label: scenario.title, origin: this.origin };
    this.status = 'asking';
  }
}

/** The carrier reader, with the engines and schemas it parses with: none of it is in the first screen. */
async function carrierReader(): Promise<(scenario: Scenario) => DocumentCarriers> {
  await loadDocuments();
  return documents().scenarioCarriers;
}
