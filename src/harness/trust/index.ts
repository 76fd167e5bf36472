/** The trust gate for settings that arrive from links and imported files. */
export { actionableContent, hasActionableContent, applyTrust, trustKey, canonicalJson, PERMISSIVE_MODES, type ActionableContent } from './trust.ts';
export { documentKey, DOCUMENT_KEY_VERSION } from './document-key.ts';
