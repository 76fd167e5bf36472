/**
 * Every unit test file starts with the document engines loaded (yaml, RE2: `harness/util/engines.ts`)
 * and the page's document layer (the scenario schemas: `ui/state/documents.ts`), as the harness's
 * and the page's entry points load them before anything reads settings, matches a rule or reads a
 * scenario: tests call those synchronous readers directly. What happens BEFORE the load (the throw,
 * and that `prepareRun`, the runner and the page's paths await it) is `document-engines.test.ts`'s,
 * in a module graph of its own.
 */
import { loadDocumentEngines } from '../../src/harness/util/engines.ts';
import { loadDocuments } from '../../src/ui/state/documents.ts';

await loadDocumentEngines();
await loadDocuments();
