/** The trust gate for settings that arrive from links and imported files. */
export { actionableContent, hasActionableContent, applyTrust, trustKey, canonicalJson, PERMISSIVE_MODES, type ActionableContent } from './trust.ts';
export { documentKey, DOCUMENT_KEY_VERSION } from './document-key.ts';
export {
  documentCarriers,
  carriersAct,
  hookBody,
  type TrustDocument,
  type DocumentCarriers,
  type SettingsCarrier,
  type McpCarrier,
  type ToolCarrier,
  type FileCarrier,
  type CarriedTool,
} from './carriers.ts';
export { carrierLines } from './carrier-lines.ts';
