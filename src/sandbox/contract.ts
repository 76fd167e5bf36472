/**
 * The shared contract every {@link Sandbox} must pass: the unit tests run it on just-bash in
 * Node, and the app runs it in the browser as a "sandbox self-check" on whichever sandbox is
 * live. No test framework here: a case throws an Error saying what differed.
 *
 * Timeouts are small (hundreds of ms) so the whole suite runs in a few seconds.
 *
 * The cases live in `contract/`, one file per area (exec, commands, files, runtimes) with the assertions
 * they share in `contract/assert.ts`; this file joins them in order and runs them.
 */
import type { Sandbox } from '../harness/ports.ts';
import type { ContractCase } from './contract/assert.ts';
import { commandCases } from './contract/command-cases.ts';
import { execCases } from './contract/exec-cases.ts';
import { fsCases } from './contract/fs-cases.ts';
import { runtimeCases } from './contract/runtime-cases.ts';

export type { ContractCase } from './contract/assert.ts';
export { expectEqual, expectFsError, expectTrue } from './contract/assert.ts';
export type ContractOutcome = { name: string; ok: boolean; error?: string; ms: number };

export const contractCases: ContractCase[] = [...execCases, ...commandCases, ...fsCases, ...runtimeCases()];

/**
 * Runs every case on a fresh sandbox from `makeSandbox`, disposing it afterwards.
 * Never throws; each outcome says whether its case passed and why not.
 */
export async function runSandboxContract(
  makeSandbox: () => Promise<Sandbox>,
  cases: ContractCase[] = contractCases,
): Promise<ContractOutcome[]> {
  const outcomes: ContractOutcome[] = [];
  for (const c of cases) {
    const started = Date.now();
    let sb: Sandbox | undefined;
    try {
      sb = await makeSandbox();
      await c.run(sb);
      outcomes.push({ name: c.name, ok: true, ms: Date.now() - started });
    } catch (err) {
      outcomes.push({ name: c.name, ok: false, error: err instanceof Error ? err.message : String(err), ms: Date.now() - started });
    } finally {
      await sb?.dispose().catch(() => {});
    }
  }
  return outcomes;
}
