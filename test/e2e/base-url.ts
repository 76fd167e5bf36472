/**
 * `E2E_BASE_URL`: run the browser tests against an app that is already being served — `npm run dev`
 * while working on the UI (no build between edits), or a preview you started yourself — instead of
 * the snapshot of `dist/` that global-setup serves. No vitest imports (a unit test reads this).
 *
 * Only a loopback address is accepted: the tests never reach beyond the machine (the browser's
 * flags fail every other request), and a typo here must not point them at a real site.
 */
export function externalBaseUrl(env: Readonly<Record<string, string | undefined>>): string | null {
  const raw = env.E2E_BASE_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`E2E_BASE_URL is not a URL: "${raw}" (e.g. http://127.0.0.1:5173 for \`npm run dev\`)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`E2E_BASE_URL must be http(s): "${raw}"`);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`E2E_BASE_URL must be a loopback address (127.0.0.1, localhost, [::1]): "${raw}" — the tests never leave the machine`);
  }
  if (url.pathname !== '/' || url.search || url.hash) throw new Error(`E2E_BASE_URL is the app's origin, with no path: "${raw}"`);
  return url.origin;
}
