/**
 * just-bash's browser build calls `Buffer` (base64, gzip); browsers have none. Install the
 * `buffer` package's implementation once, before any command runs. A no-op in Node.
 */
import { Buffer } from 'buffer';

const g = globalThis as { Buffer?: unknown };
g.Buffer ??= Buffer;
