/**
 * The part of `node:zlib` that just-bash's gzip/gunzip/zcat/rg use, for the browser build
 * (vite.config.ts aliases `node:zlib` here). Node keeps the real module.
 */
import { Buffer } from 'buffer';
import { gunzipSync as fflateGunzip, gzipSync as fflateGzip } from 'fflate';

export const constants = {
  Z_NO_COMPRESSION: 0,
  Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9,
  Z_DEFAULT_COMPRESSION: -1,
} as const;

type Level = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
type ZlibOptions = { level?: number; maxOutputLength?: number };

function bytes(data: Uint8Array | ArrayBuffer | string): Uint8Array {
  if (typeof data === 'string') return new TextEncoder().encode(data);
  return data instanceof Uint8Array ? data : new Uint8Array(data);
}

function capped(out: Uint8Array, max: number | undefined): Buffer {
  if (max !== undefined && out.length > max) {
    throw new RangeError(`Cannot create a Buffer larger than ${max} bytes (maxOutputLength)`);
  }
  return Buffer.from(out.buffer, out.byteOffset, out.length);
}

export function gzipSync(data: Uint8Array | ArrayBuffer | string, opts: ZlibOptions = {}): Buffer {
  const level = opts.level === undefined || opts.level < 0 ? 6 : (Math.min(9, opts.level) as Level);
  return capped(fflateGzip(bytes(data), { level, mtime: 0 }), opts.maxOutputLength);
}

export function gunzipSync(data: Uint8Array | ArrayBuffer | string, opts: ZlibOptions = {}): Buffer {
  return capped(fflateGunzip(bytes(data)), opts.maxOutputLength);
}

export default { constants, gzipSync, gunzipSync };
