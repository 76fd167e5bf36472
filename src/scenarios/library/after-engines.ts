/**
 * The library module once the document engines have loaded (`harness/util/engines.ts`): the
 * built-ins are validated as `index.ts` loads, tier patterns with RE2. The build's prebuilt step
 * (`prebuilt.ts`) imports this through Vite's module runner, whose module graph is its own.
 */
import { loadDocumentEngines } from '../../harness/util/index.ts';

await loadDocumentEngines();

export const library = await import('./index.ts');
