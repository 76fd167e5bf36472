/**
 * The project's Vite config for the e2e preview server, plus one change: responses are sent
 * uncompressed. `vite preview` gzips every script and stylesheet on each request, and every test
 * opens the app in a fresh browser context (an empty cache), so each test paid ~0.3 s of the
 * server's CPU to compress and the browser's to inflate — on loopback, where compression saves
 * nothing. The app, its headers (COOP/COEP, CSP) and its files are the same; the first-screen
 * bench keeps compression (it times what a visitor's browser does).
 */
import { mergeConfig, type Plugin } from 'vite';
import project from '../../vite.config.ts';

const identityEncoding: Plugin = {
  name: 'e2e-identity-encoding',
  configurePreviewServer(server) {
    // Runs before Vite's own compression middleware, which then sees no accepted encoding.
    server.middlewares.use((req, _res, next) => {
      delete req.headers['accept-encoding'];
      next();
    });
  },
};

export default mergeConfig(project, { plugins: [identityEncoding] });
