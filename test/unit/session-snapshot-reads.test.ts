/**
 * A snapshot's reads overlap (src/harness/session/snapshot.ts): with the sandbox in a worker each
 * read is a round trip, and the first Step of a recorded session waited for all of them in a row.
 * At most a few are in flight, and the snapshot is the same, in the same order, as a walk that
 * reads one file after another.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxFs } from '../../src/harness/ports.ts';
import { snapshotSandbox } from '../../src/harness/session/snapshot.ts';
import { createJustBashSandbox } from '../../src/sandbox/justbash/index.ts';

const ROOT = '/home/project';

/** `fs` with its calls counted: how many were pending at most. */
function counting(fs: SandboxFs): { fs: SandboxFs; most: () => number } {
  let pending = 0;
  let most = 0;
  const track =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      most = Math.max(most, ++pending);
      try {
        return await f(...a);
      } finally {
        pending--;
      }
    };
  return {
    fs: { ...fs, list: track(fs.list.bind(fs)), stat: track(fs.stat.bind(fs)), readFile: track(fs.readFile.bind(fs)) },
    most: () => most,
  };
}

/** The depth-first order of a walk that reads one entry after another. */
async function walkOrder(fs: SandboxFs, rel = ''): Promise<{ files: string[]; dirs: string[] }> {
  const out = { files: [] as string[], dirs: [] as string[] };
  for (const e of await fs.list(rel ? `${ROOT}/${rel}` : ROOT)) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.kind === 'dir') {
      out.dirs.push(path);
      const sub = await walkOrder(fs, path);
      out.files.push(...sub.files);
      out.dirs.push(...sub.dirs);
    } else out.files.push(path);
  }
  return out;
}

describe('a snapshot reads files side by side', () => {
  it('several reads are in flight, never more than eight, and the snapshot keeps the walk order', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`f${i}.txt`] = `top ${i}`;
    for (let i = 0; i < 6; i++) files[`src/lib/m${i}.ts`] = `lib ${i}`;
    files['src/index.ts'] = 'index';
    files['docs/a.md'] = 'a';
    const sb = await createJustBashSandbox({ files });
    const spy = counting(sb.fs);
    const snap = await snapshotSandbox(spy.fs, ROOT);
    expect(spy.most()).toBeGreaterThan(1);
    expect(spy.most()).toBeLessThanOrEqual(8);
    const order = await walkOrder(sb.fs);
    expect(Object.keys(snap.files)).toEqual(order.files);
    expect(snap.files).toEqual(Object.fromEntries(order.files.map((p) => [p, files[p]])));
    expect(snap.dirs).toEqual([...order.dirs].sort());
  });
});
