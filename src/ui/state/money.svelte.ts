/**
 * The page's money settings: the price table (Anthropic's, with its date and source, or the
 * user's edit of it) and the dollar ceiling for runs. Kept in localStorage (no secret in them);
 * an edit that does not parse is refused with the problem named, and nothing is lost.
 *
 * A saved table is checked with its schema (`harness/cost/price-table.ts`, zod), which the first
 * screen does not load: until it has (`ready`, a few milliseconds after start-up), the built-in table
 * is in force — never an unchecked one. A run waits for `ready` before it reads the table.
 */
import * as cost from '../../harness/cost/light.ts';

const STORE = 'hp.money';

type Stored = { prices?: unknown; maxBudgetUsd?: unknown };

export class MoneySettings {
  prices = $state<cost.PriceTable>(cost.DEFAULT_PRICE_TABLE);
  /** Dollars a run may spend; null: no ceiling. */
  maxBudgetUsd = $state<number | null>(null);
  /** Why the saved settings were not used, or null. */
  notice = $state<string | null>(null);
  /** Settled once the saved table (if any) is checked and in force, or refused with a `notice`. */
  readonly ready: Promise<void> = Promise.resolve();

  /** `storage`: the page's localStorage; none (Node tests): the defaults, kept in memory. */
  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null = typeof localStorage === 'undefined' ? null : localStorage) {
    let raw: string | null;
    try {
      raw = storage?.getItem(STORE) ?? null;
    } catch {
      return;
    }
    if (raw === null) return;
    let s: Stored;
    try {
      s = JSON.parse(raw) as Stored;
    } catch {
      this.notice = 'The saved money settings were not readable (not JSON); the defaults are in force.';
      return;
    }
    if (typeof s.maxBudgetUsd === 'number' && s.maxBudgetUsd > 0) this.maxBudgetUsd = s.maxBudgetUsd;
    const saved = s.prices;
    if (saved === undefined) return;
    this.ready = priceTableReader().then(
      (parse) => {
        const p = parse(saved);
        if (p.ok) this.prices = p.table;
        else this.notice = `The saved price table was not used (${p.problem}); the built-in one is in force.`;
      },
      (e: unknown) => {
        this.notice = `The saved price table could not be checked (${e instanceof Error ? e.message : String(e)}); the built-in one is in force. Reload the page to try again.`;
      },
    );
  }

  /** Applies an edited price table (JSON text); resolves to the problem, or null when it is in force. */
  async setPricesJson(text: string): Promise<string | null> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return `Not JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
    let parse: Awaited<ReturnType<typeof priceTableReader>>;
    try {
      parse = await priceTableReader();
    } catch (e) {
      return `The table could not be checked (${e instanceof Error ? e.message : String(e)}): reload the page to try again.`;
    }
    const p = parse(json);
    if (!p.ok) return p.problem;
    this.prices = p.table;
    this.save();
    return null;
  }

  resetPrices(): void {
    this.prices = cost.DEFAULT_PRICE_TABLE;
    this.save();
  }

  /** Sets the ceiling from the field's text ('' clears it); returns the problem, or null. */
  setBudget(text: string): string | null {
    if (text.trim() === '') {
      this.maxBudgetUsd = null;
      this.save();
      return null;
    }
    const n = Number(text);
    if (!Number.isFinite(n) || n <= 0) return 'A ceiling is an amount of dollars above 0, e.g. 0.50.';
    this.maxBudgetUsd = n;
    this.save();
    return null;
  }

  private save(): void {
    try {
      this.storage?.setItem(STORE, JSON.stringify({ prices: this.prices, maxBudgetUsd: this.maxBudgetUsd }));
      this.notice = null;
    } catch {
      // Storage full or blocked: the settings still apply to this tab.
    }
  }
}

/** The price table's reader with its schema, loaded when a table is first read. */
const priceTableReader = () => import('../../harness/cost/price-table.ts').then((m) => m.parsePriceTable);

/** The page's one instance (the settings panel edits it, runs read it). */
export const money = new MoneySettings();
