/**
 * The entry of the bundled runner (`dist-cli/harness.mjs`, run by `bin/harness-playground.mjs`):
 * it only starts `main`, so importing the runner's modules elsewhere (tests) starts nothing.
 */
import { runFromProcess } from './run-scenario.ts';

runFromProcess();
