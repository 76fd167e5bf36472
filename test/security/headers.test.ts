import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameScriptHash } from '../../src/security/frame-hash-node.ts';
import { contentSecurityPolicy, headersFile, securityHeaders } from '../../src/security/headers.ts';
import { FRAME_SCRIPT } from '../../src/user-code/frame-script.ts';

const directives = (csp: string) => new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k ?? '', v]));

describe('the app ships one set of security headers', () => {
  it('public/_headers is what src/security/headers.ts says (regenerate: npx tsx scripts/write-headers.ts)', () => {
    const onDisk = readFileSync(new URL('../../public/_headers', import.meta.url), 'utf8');
    expect(onDisk).toBe(headersFile(frameScriptHash()));
  });

  it('an attacker-injected inline script or eval has no way in: no unsafe-inline, no unsafe-eval, no data: scripts', () => {
    const d = directives(contentSecurityPolicy(frameScriptHash()));
    const scripts = d.get('script-src') ?? [];
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
    expect(scripts.some((s) => /^(data:|blob:|https?:|\*)/.test(s))).toBe(false);
    // Only the user-code frame's own script is allowed inline, by hash.
    expect(scripts.filter((s) => s.startsWith("'sha256-"))).toEqual([`'${frameScriptHash()}'`]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('keeps cross-origin isolation and the hardening headers', () => {
    const h = securityHeaders(frameScriptHash());
    expect(h['Cross-Origin-Opener-Policy']).toBe('same-origin');
    expect(h['Cross-Origin-Embedder-Policy']).toBe('require-corp');
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['Referrer-Policy']).toBe('no-referrer');
  });

  it('the frame script hash changes with the script (a stale hash would block every JS hook)', () => {
    expect(FRAME_SCRIPT).not.toMatch(/<\/script/i);
    expect(frameScriptHash()).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
  });
});

describe('the built page carries the policy itself', () => {
  it('as a <meta> first in <head> (a static host that ignores _headers still gets it), without frame-ancestors (ignored in a meta)', async () => {
    const { metaContentSecurityPolicy, withCspMeta } = await import('../../src/security/headers.ts');
    const policy = metaContentSecurityPolicy(frameScriptHash());
    expect(policy).toBe(contentSecurityPolicy(frameScriptHash()).replace("; frame-ancestors 'none'", ''));
    const html = withCspMeta('<!doctype html><html><head><script type="module" src="/a.js"></script></head></html>', policy);
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'));
    expect(html).toContain(`content="${policy.replace(/'/g, "'")}"`);
    // vite.config.ts wires it into the build.
    expect(readFileSync(new URL('../../vite.config.ts', import.meta.url), 'utf8')).toMatch(/apply: 'build', transformIndexHtml: \(html: string\) => withCspMeta\(html, metaContentSecurityPolicy\(frameScriptHash\(\)\)\)/);
  });
});
