/**
 * The page's document layer, loaded on demand: reading and writing scenario documents (a share
 * link, an imported file, a session's workbench record, a recording made into a lesson) and the
 * trust question's carrier reader. All of it validates with zod schemas, and the settings inside
 * with yaml and RE2 (`harness/util/engines.ts`), so none of it is in the first screen's script.
 *
 * The contract is the engines' one: every entry point awaits {@link loadDocuments} (a share link
 * before the page mounts, a panel before it renders, a button before it acts); the synchronous
 * users then take the functions from {@link documents}, which throws before that — never a quiet
 * "invalid" for a document that was simply read too early.
 */
import { documentEnginesLoaded, loadDocumentEngines } from '../../harness/util/index.ts';

type DocumentLayer = typeof import('./document-layer.ts');

let layer: DocumentLayer | null = null;
let loading: Promise<void> | null = null;

/** The layer was used before {@link loadDocuments} settled: a missing `await` (a bug), never a verdict. */
export class DocumentsNotLoadedError extends Error {
  override name = 'DocumentsNotLoadedError';
  constructor() {
    super('The scenario reader has not loaded yet: await loadDocuments() before reading or writing a scenario document.');
  }
}

/**
 * Loads the document engines and the layer (once; a failed load is tried again on the next call).
 * Rejects with what could not be loaded and what to do.
 */
export function loadDocuments(): Promise<void> {
  if (documentsLoaded()) return Promise.resolve();
  const reader = import('./document-layer.ts').catch((e: unknown) => {
    throw new Error(`Could not load the scenario reader (${e instanceof Error ? e.message : String(e)}). Check the connection and reload the page.`);
  });
  return (loading ??= Promise.all([loadDocumentEngines(), reader]).then(
    ([, m]) => {
      layer = m;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  ));
}

/** Whether {@link loadDocuments} has settled successfully (synchronous users may run). */
export function documentsLoaded(): boolean {
  return layer !== null && documentEnginesLoaded();
}

/** The layer's functions, or {@link DocumentsNotLoadedError}. */
export function documents(): DocumentLayer {
  if (!layer || !documentEnginesLoaded()) throw new DocumentsNotLoadedError();
  return layer;
}
