/**
 * The project's Vite config for the dev server `dev-server.e2e.ts` starts, with its own cache of
 * pre-bundled dependencies (`HP_E2E_VITE_CACHE`, a fresh temp folder per run): the test pre-bundles
 * afresh (`--force`, as on a clean clone), which in the shared `node_modules/.vite` would pull the
 * files from under a `npm run dev` the developer has open beside `npm test`.
 */
import { mergeConfig } from 'vite';
import project from '../../vite.config.ts';

const cacheDir = process.env.HP_E2E_VITE_CACHE;
if (!cacheDir) throw new Error('test/e2e/vite.dev.config.ts: HP_E2E_VITE_CACHE names the cache folder (startViteDev sets it)');

export default mergeConfig(project, { cacheDir });
