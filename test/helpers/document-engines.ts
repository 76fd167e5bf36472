/**
 * Every unit test file starts with the document engines loaded (yaml, RE2: `harness/util/engines.ts`),
 * as the harness's entry points load them before anything reads settings or matches a rule: tests
 * call those synchronous readers directly. What happens BEFORE the load (the throw, and that
 * `prepareRun`, the runner and the page's paths await it) is `document-engines.test.ts`'s, in a module
 * graph of its own.
 */
import { loadDocumentEngines } from '../../src/harness/util/engines.ts';

await loadDocumentEngines();
