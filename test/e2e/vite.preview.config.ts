/**
 * The project's Vite config for the e2e preview server, plus two changes:
 * - responses are sent uncompressed. `vite preview` gzips every script and stylesheet on each
 *   request, and each test file's first page starts with an empty cache, so it paid ~0.3 s of the
 *   server's CPU to compress and the browser's to inflate — on loopback, where compression saves
 *   nothing;
 * - the hashed files under `/assets/` are sent as cacheable for good (`immutable`), as a deploy
 *   sends them, instead of the static server's `no-cache`: the tests of a file share one HTTP
 *   cache (`browser.ts`), and every page revalidated each of its scripts (three e2e files, two
 *   alternated runs each: 116.7 / 115.8 s → 110.8 / 112.2 s).
 * The app, its other headers (COOP/COEP, CSP) and its files are the same; the first-screen bench
 * keeps Vite's defaults (it times what a visitor's browser does on a first visit).
 */
import { mergeConfig, type Plugin } from 'vite';
import project from '../../vite.config.ts';

const identityEncoding: Plugin = {
  name: 'e2e-identity-encoding',
  configurePreviewServer(server) {
    // Runs before Vite's own compression middleware, which then sees no accepted encoding.
    server.middlewares.use((req, res, next) => {
      delete req.headers['accept-encoding'];
      // Hashed files never change: cached for good, as a deploy would send them, instead of the
      // static server's `no-cache` (a revalidation round trip for every script on every page).
      if (req.url?.startsWith('/assets/')) {
        const setHeader = res.setHeader.bind(res);
        res.setHeader = (name, value) => setHeader(name, name.toLowerCase() === 'cache-control' ? 'public, max-age=31536000, immutable' : value);
      }
      next();
    });
  },
};

export default mergeConfig(project, { plugins: [identityEncoding] });
