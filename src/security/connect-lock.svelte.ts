/**
 * Narrows the app's `connect-src` from the broad static header (any https, loopback) to the app
 * itself plus the ONE model origin the user chose, by adding a
 * `<meta http-equiv="Content-Security-Policy" content="connect-src 'self' <origin>">`. Policies
 * intersect, so from then on nothing in the page (injected script, a compromised dependency) can
 * send data anywhere else; and a policy cannot be loosened again, so moving to another origin
 * needs a reload.
 *
 * When: at start-up if the saved settings are in live mode (`ModelSettings`), otherwise right
 * before the first live model call (`RunController`). A scripted-only session never narrows,
 * since it makes no model calls at all.
 */

let lockedOrigin = $state<string | null>(null);
/** Origins the user added MCP servers at (by their own action); they join the lock when it is set. */
const extraOrigins = $state<string[]>([]);

/** The origin `connect-src` is locked to, or null while it is still the broad header's. */
export function connectLockedTo(): string | null {
  return lockedOrigin;
}

function originOf(baseURL: string): string | null {
  try {
    const u = new URL(baseURL.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** Why a live call to `baseURL` cannot go out from this page as it is, or null when it can. */
export function connectLockProblem(baseURL: string): string | null {
  const origin = originOf(baseURL);
  if (!lockedOrigin || !origin || origin === lockedOrigin) return null;
  return `This page may only connect to ${lockedOrigin}, the model endpoint it started with (its security policy was narrowed to it). Reload the page to use ${origin}.`;
}

/**
 * Locks `connect-src` to 'self' + the origin of `baseURL` (once per page; later calls with the
 * same origin do nothing). Returns the problem instead when the page is locked to another origin.
 */
export function lockConnectTo(baseURL: string, doc: Document = document): string | null {
  const origin = originOf(baseURL);
  if (!origin) return null;
  const problem = connectLockProblem(baseURL);
  if (problem || lockedOrigin) return problem;
  const meta = doc.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = `connect-src 'self' ${[origin, ...extraOrigins.filter((o) => o !== origin)].join(' ')}`;
  meta.setAttribute('data-connect-lock', origin);
  doc.head.appendChild(meta);
  lockedOrigin = origin;
  return null;
}

/**
 * The user added an MCP server at `url`: the page may connect to its origin. Before the lock is
 * set that origin joins it (the lock then allows the model origin and these); after, a policy
 * cannot be loosened, so a new origin needs a reload — returned as the problem. Null when it can go.
 */
export function allowConnectOrigin(url: string): string | null {
  const origin = originOf(url);
  if (!origin) return `"${url}" is not an http(s) URL`;
  if (extraOrigins.includes(origin) || origin === lockedOrigin) return null;
  if (lockedOrigin) {
    return `This page may only connect to ${lockedOrigin} (its security policy was narrowed to the model endpoint when the first live call went out). Reload the page and add the MCP server before the first live call to reach ${origin}.`;
  }
  extraOrigins.push(origin);
  return null;
}

/** The MCP origins the user allowed in this page. */
export function allowedConnectOrigins(): readonly string[] {
  return extraOrigins;
}
