/**
 * Wraps just-bash's file system so every mutation, whether it comes from a command (`echo >`,
 * `rm`, `mv` …) or from our {@link SandboxFs}, is recorded for watchers. That gives `watch`
 * exact paths after an exec instead of a blanket "something changed".
 */
import type { IFileSystem } from 'just-bash';

/** Mutating methods and which of their arguments are paths. */
const MUTATORS: Record<string, number[]> = {
  writeFile: [0],
  appendFile: [0],
  mkdir: [0],
  rm: [0],
  cp: [1],
  mv: [0, 1],
  chmod: [0],
  symlink: [1],
  link: [1],
  utimes: [0],
};

export function trackMutations(inner: IFileSystem, record: (path: string) => void): IFileSystem {
  return new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const argIdx = typeof key === 'string' ? MUTATORS[key] : undefined;
      // Bind to the real instance: InMemoryFs keeps state in fields a Proxy receiver cannot reach.
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      if (!argIdx) return fn;
      return (...args: unknown[]) => {
        const result = fn(...args);
        const paths = argIdx.map((i) => args[i]).filter((p): p is string => typeof p === 'string');
        const note = () => {
          for (const p of paths) record(target.resolvePath('/', p));
        };
        if (result instanceof Promise) return result.then((v) => (note(), v));
        note();
        return result;
      };
    },
  });
}
