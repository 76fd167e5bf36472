/*
 * zod keeps its configuration on globalThis.__zod_globalConfig. Set `jitless` here, in a classic
 * script that runs before any module: the production build evaluates shared chunks (where schemas
 * are defined at load, and zod 4 probes `new Function` when an object schema is defined) before the
 * entry's own body, so `z.config` in src/zod-jitless.ts alone comes too late there. The probe fails
 * under our CSP anyway; this keeps it from being reported as a violation. See src/zod-jitless.ts.
 */
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
