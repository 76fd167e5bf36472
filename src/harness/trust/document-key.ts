/**
 * Trust is keyed to the whole document: the SHA-256 of a canonical serialisation of everything
 * a scenario or import brings — files, every prompt, recorded turns, settings, hooks, memory
 * files, skills, lesson notes. Two links that share their rules but differ in one byte of a file
 * have different keys, so trusting one never pre-trusts the other, and an edited link asks again.
 *
 * The key is versioned (`doc-v2:` inside the hashed text): keys of the old scheme (a hash of the
 * hooks/allow rules/mode alone) can never collide with these, and the trust store drops them.
 */
import { canonicalJson } from './trust.ts';

/** Bumped when what is hashed changes; old trust records then stop matching (they ask again). */
export const DOCUMENT_KEY_VERSION = 'doc-v2';

/** SHA-256 (hex) of the canonical JSON of the whole document; WebCrypto (Node 20 and browsers). */
export async function documentKey(document: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(`${DOCUMENT_KEY_VERSION}\n${canonicalJson(document)}`);
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
