/** The built-ins as the page reads them, made at build time (`prebuilt.ts`). */
declare module 'virtual:first-builtin' {
  /** The default document, migrated and validated. */
  export const firstDoc: import('../schema-v1.ts').ScenarioV1;
}
declare module 'virtual:builtin-library' {
  /** Every built-in document, migrated and validated (`library/index.ts`'s `builtinDocs`). */
  export const builtinDocs: import('../schema-v1.ts').ScenarioV1[];
}
