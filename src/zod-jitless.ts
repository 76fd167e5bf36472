/**
 * Imported first by the page's entry (`main.ts`). zod compiles object
 * parsers with `new Function` when it can, and probes for that with a caught `new Function("")`;
 * under our CSP (no `unsafe-eval`) the probe fails as intended but is still reported as a
 * `securitypolicyviolation`, noise in exactly the report a security reviewer reads. `jitless` skips
 * both the probe and the compiled path; parsing stays correct, only a little slower.
 *
 * In the production build shared chunks are evaluated before this module's body, and zod probes
 * when an object schema is *defined*, so `index.html` also loads `public/zod-jitless.js`, a classic
 * script that sets the same flag on `globalThis.__zod_globalConfig` before any module runs.
 */
import { z } from 'zod';

z.config({ jitless: true });
