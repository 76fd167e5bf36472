/**
 * The entry of the bundled runner (`dist-cli/harness.mjs`, run by `bin/harness-playground.mjs`):
 * it only starts `main`, so importing the runner's modules elsewhere (tests) starts nothing.
 */
import { tuneHeapForCli } from './heap.ts';
import { runFromProcess } from './run-scenario.ts';

// A long session's peak memory is mostly V8's young generation: keep it small (heap.ts).
tuneHeapForCli();
runFromProcess();
