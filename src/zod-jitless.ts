/**
 * Imported first by the page's entry (`main.ts`). zod compiles object
 * parsers with `new Function` when it can, and probes for that with a caught `new Function("")`;
 * under our CSP (no `unsafe-eval`) the probe fails as intended but is still reported as a
 * `securitypolicyviolation`, noise in exactly the report a security reviewer reads. `jitless` skips
 * both the probe and the compiled path; parsing stays correct, only a little slower.
 *
 * zod keeps its configuration on `globalThis.__zod_globalConfig` (what `z.config` writes to): set
 * the flag there without importing zod, so the first screen does not carry zod (it loads with the
 * harness, on demand). In the production build `index.html` also loads `public/zod-jitless.js`, a
 * classic script that sets the same flag before any module runs.
 */
const g = globalThis as { __zod_globalConfig?: Record<string, unknown> };
g.__zod_globalConfig = Object.assign(g.__zod_globalConfig ?? {}, { jitless: true });

export {};
