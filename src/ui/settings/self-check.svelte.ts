/**
 * The sandbox contract run in this browser on fresh just-bash sandboxes: the same cases the unit
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
      const [{ runSandboxContract }, { createJustBashSandbox }] = await Promise.all([
        import('../../sandbox/contract.ts'),
        import('../../sandbox/justbash/index.ts'),
      ]);
      this.results = await runSandboxContract(() => createJustBashSandbox());
    } catch (err) {
      this.error = `The self-check could not run: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.running = false;
    }
  }
}
