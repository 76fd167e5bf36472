/**
 * Files that usually hold secrets. Reading one through the `read` tool asks first, whatever the
 * mode (the tool's own permission check), unless an allow rule names it.
 */
import { basename } from '../util/paths.ts';

const SECRET_NAMES = [/^\.env$/, /^\.env\..+$/, /\.pem$/, /\.key$/, /^id_(rsa|dsa|ecdsa|ed25519)$/, /^\.netrc$/, /^\.npmrc$/, /^\.pypirc$/];
/** Templates meant to be committed. */
const NOT_SECRET = /^\.env\.(example|sample|template|dist)$/;

export function isSecretFile(path: string): boolean {
  const name = basename(path);
  if (NOT_SECRET.test(name)) return false;
  return SECRET_NAMES.some((re) => re.test(name));
}

/**
 * Paths no mode auto-approves writing: anything under `.git/`, and the harness's own settings
 * (`.claude/` holds settings, hooks, commands and agents; `.mcp.json` starts servers).
 */
export function protectedPathReason(path: string): string | null {
  const segs = path.split('/');
  if (segs.includes('.git')) return `${path} is inside .git/`;
  if (segs.includes('.claude')) return `${path} is a settings/hooks file (.claude/)`;
  if (basename(path) === '.mcp.json') return `${path} configures MCP servers`;
  return null;
}
