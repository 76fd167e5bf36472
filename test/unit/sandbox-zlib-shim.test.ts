import { gunzipSync as nodeGunzip, gzipSync as nodeGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { constants, gunzipSync, gzipSync } from '../../src/sandbox/justbash/zlib-shim.ts';

describe('node:zlib shim for the browser build', () => {
  const text = 'hello gzip '.repeat(200);

  it('produces gzip that real zlib reads, and reads gzip that real zlib wrote', () => {
    const ours = gzipSync(new TextEncoder().encode(text), { level: constants.Z_BEST_COMPRESSION });
    expect(nodeGunzip(ours).toString('utf8')).toBe(text);
    const theirs = nodeGzip(Buffer.from(text));
    expect(new TextDecoder().decode(gunzipSync(theirs))).toBe(text);
  });

  it('enforces maxOutputLength like zlib does', () => {
    const packed = nodeGzip(Buffer.from(text));
    expect(() => gunzipSync(packed, { maxOutputLength: 10 })).toThrow(RangeError);
  });
});
