/**
 * Imported first by the page's entry (`main.ts`). zod compiles object
 * parsers with `new Function` when it can, and probes for that with a caught `new Function("")`;
 * under our CSP (no `unsafe-eval`) the probe fails as intended but is still reported as a
 * `securitypolicyviolation`, noise in exactly the report a security reviewer reads. `jitless` skips
 * both the probe and the compiled path; parsing stays correct, only a little slower.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig` (what `z.config` writes to): set
 * the flag there without importing zod. Being `main.ts`'s first import (and importing nothing), this
 * module runs before any other: in `vite dev` by ES module order, and in the build because the
 * first screen is one chunk (`vite.config.ts`), in which modules keep their order. zod itself is not
 * in it: it arrives with the first chunk that validates something (the document layer, a store's
 * record check, the harness), always after this has run. (It was a classic script in `index.html` while the first screen was ~30 chunks
 * whose shared ones ran before the entry's body; that cost a request before the entry could load.)
 * The devkit e2e test checks that start-up reports no CSP violation.
 */
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = Object.assign(g.__zod_globalConfig ?? {}, { jitless: true });

export {};
