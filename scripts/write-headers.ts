/** Writes public/_headers from src/security/headers.ts. Run: `npx tsx scripts/write-headers.ts`. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { frameScriptHash } from '../src/security/frame-hash-node.ts';
import { headersFile } from '../src/security/headers.ts';

const path = fileURLToPath(new URL('../public/_headers', import.meta.url));
writeFileSync(path, headersFile(frameScriptHash()));
console.log(`wrote ${path}`);
