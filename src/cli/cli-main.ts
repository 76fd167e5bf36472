/**
 * The entry of the bundled runner (`dist-cli/harness.mjs`, run by `bin/harness-playground.mjs`):
 * it only starts `main`, so importing the runner's modules elsewhere (tests) starts nothing.
 *
 * The Node built-ins below are loaded here, first, because Node compiles its own modules from a
 * code cache only while V8's flags are the defaults; once `heap.ts` changes them every built-in
 * loaded later is compiled from source (heap.ts says why and what it costs). These are the ones
 * every run loads before its first request; `fetch` is a lazy getter that loads undici.
 */
import 'node:crypto';
import 'node:fs/promises';
import 'node:http';
import 'node:http2';
import 'node:tls';
import 'node:worker_threads';
import 'node:zlib';
import { tuneHeapForCli } from './heap.ts';
import { runFromProcess } from './run-scenario.ts';

void globalThis.fetch;
// A long session's peak memory is mostly V8's young generation: keep it small (heap.ts).
tuneHeapForCli();
runFromProcess();
