/**
 * The sandbox contract run in this browser on fresh just-bash sandboxes of the kind the app uses
 * (in a Web Worker when the page can start one): the same cases the unit
 * tests run in Node, so a person can see that the sandbox behaves here as it does there.
 */
import type { ContractOutcome } from '../../sandbox/contract.ts';

export class SelfCheck {
  running = $state(false);
  results = $state.raw<ContractOutcome[]>([]);
  error = $state<string | null>(null);

  passed = $derived(this.results.filter((r) => r.ok).length);

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.error = null;
    this.results = [];
    try {
      const [{ runSandboxContract }, { createPreferredJustBash }] = await Promise.all([
        import('../../sandbox/contract.ts'),
        import('../../sandbox/select.ts'),
      ]);
      // The same just-bash the app runs (in a Worker when it can), so the check speaks for it.
      this.results = await runSandboxContract(async () => (await createPreferredJustBash()).sandbox);
    } catch (err) {
      this.error = `The self-check could not run: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.running = false;
    }
  }
}
