/**
 * The trust folder's light entry point: what the first screen needs (the trust key, the dialog's
 * lines, whether carriers act) without the carrier reader (`documentCarriers`), which parses
 * settings and `.mcp.json` with their schemas (zod) and is loaded with the document engines.
 */
export { actionableContent, hasActionableContent, applyTrust, trustKey, canonicalJson, PERMISSIVE_MODES, type ActionableContent } from './trust.ts';
export { documentKey, DOCUMENT_KEY_VERSION } from './document-key.ts';
export { carriersAct, hookBody } from './carrier-types.ts';
export type * from './carrier-types.ts';
export { carrierLines } from './carrier-lines.ts';
