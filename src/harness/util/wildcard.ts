/**
 * One linear-time wildcard matcher for the three pattern dialects that arrive in documents:
 * `glob`/`grep` file patterns (`tools/glob-match.ts`), gitignore-style path rules
 * (`permissions/path-match.ts`) and Bash rule specifiers (`permissions/bash-command.ts`). Each
 * dialect translates its syntax into the small pattern tree below (that is where the dialects
 * differ, and only there); this module compiles the tree to a Thompson NFA and runs it by keeping
 * the set of live states, one input character at a time.
 *
 * Why not a RegExp (or picomatch, which builds one): patterns come from documents — shared links,
 * `.claude/settings.json` — and a backtracking engine takes exponential time on `a*a*a*a*a*b`
 * against a long run of `a`s. Here each input character visits each state at most twice (once to
 * add it, once to test it), so matching costs at most `2 × states × (input length + 1)` steps,
 * whatever the pattern: `run()` reports the steps so a test can check that bound structurally.
 * Sets of live states are remembered (a lazily built DFA), so a warm pattern costs one lookup per
 * character.
 */

/** A test on one UTF-16 code unit. */
export type CharTest = (code: number) => boolean;

/** The pattern tree a dialect builds. */
export type Pat =
  | { k: 'lit'; text: string }
  | { k: 'one'; test: CharTest }
  | { k: 'star'; test: CharTest }
  | { k: 'seq'; items: Pat[] }
  | { k: 'alt'; items: Pat[] }
  | { k: 'opt'; item: Pat }
  | { k: 'rep'; item: Pat };

export const lit = (text: string): Pat => ({ k: 'lit', text });
export const one = (test: CharTest): Pat => ({ k: 'one', test });
export const star = (test: CharTest): Pat => ({ k: 'star', test });
export const seq = (...items: Pat[]): Pat => ({ k: 'seq', items });
export const alt = (items: Pat[]): Pat => ({ k: 'alt', items });
export const opt = (item: Pat): Pat => ({ k: 'opt', item });
/** Zero or more repetitions. */
export const rep = (item: Pat): Pat => ({ k: 'rep', item });

const SLASH = 47;
/** Any character but `/` (a path segment's `*` and `?`). */
export const notSlash: CharTest = (c) => c !== SLASH;
/** Any character but a line terminator (what RegExp's `.` matches without the `s` flag). */
export const notNewline: CharTest = (c) => c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029;
/** Any character at all. */
export const anyChar: CharTest = () => true;

/** How many sets of live states one compiled pattern remembers. */
const DFA_LIMIT = 2000;

type State = { t: 'char'; test: CharTest; out: number } | { t: 'split'; outs: number[] } | { t: 'match' };

export type Wildcard = {
  /** Whether the whole input matches. */
  test(input: string): boolean;
  /** The same, with the work done: `steps` never exceeds `2 × size × (input.length + 1)`. */
  run(input: string): { matched: boolean; steps: number };
  /** The number of NFA states. */
  readonly size: number;
};

/** Compiles a pattern tree (anchored at both ends). `ignoreCase` folds letters as RegExp's `i` does. */
export function compileWildcard(pattern: Pat, opts: { ignoreCase?: boolean } = {}): Wildcard {
  const states: State[] = [{ t: 'match' }];
  // Folding applies to literal text; a dialect's own tests (classes) fold themselves.
  const fold = opts.ignoreCase ?? false;

  // Built back to front: each fragment is compiled knowing the state that follows it.
  function build(p: Pat, next: number): number {
    switch (p.k) {
      case 'lit': {
        let at = next;
        for (let i = p.text.length - 1; i >= 0; i--) {
          const want = p.text.charCodeAt(i);
          const test: CharTest = fold ? (c) => c === want || lower(c) === lower(want) : (c) => c === want;
          at = states.push({ t: 'char', test, out: at }) - 1;
        }
        return at;
      }
      case 'one':
        return states.push({ t: 'char', test: p.test, out: next }) - 1;
      case 'star': {
        const loop = states.push({ t: 'split', outs: [] }) - 1;
        const body = states.push({ t: 'char', test: p.test, out: loop }) - 1;
        (states[loop] as { outs: number[] }).outs = [body, next];
        return loop;
      }
      case 'seq': {
        let at = next;
        for (let i = p.items.length - 1; i >= 0; i--) at = build(p.items[i]!, at);
        return at;
      }
      case 'alt':
        return states.push({ t: 'split', outs: p.items.map((item) => build(item, next)) }) - 1;
      case 'opt':
        return states.push({ t: 'split', outs: [build(p.item, next), next] }) - 1;
      case 'rep': {
        const loop = states.push({ t: 'split', outs: [] }) - 1;
        (states[loop] as { outs: number[] }).outs = [build(p.item, loop), next];
        return loop;
      }
    }
  }
  const start = build(pattern, 0);

  // The NFA is run as a lazily built DFA: each set of live states met is remembered with its
  // transitions, so a pattern used on many paths costs one map lookup per character once warm.
  // Building a set costs at most 2 × size steps; a cached transition costs one. The cache is
  // bounded: past DFA_LIMIT sets, new ones are computed and not kept (still linear, just slower).
  type DState = { states: number[]; accept: boolean; next: Map<number, DState> };
  const mark: number[] = new Array<number>(states.length).fill(-1);
  let gen = 0;
  const stack: number[] = [];
  const known = new Map<string, DState>();
  let steps = 0;

  function closure(from: readonly number[]): DState {
    gen++;
    const into: number[] = [];
    for (const s0 of from) {
      stack.push(s0);
      while (stack.length > 0) {
        const s = stack.pop()!;
        if (mark[s] === gen) continue;
        mark[s] = gen;
        steps++;
        const st = states[s]!;
        if (st.t === 'split') for (let i = st.outs.length - 1; i >= 0; i--) stack.push(st.outs[i]!);
        else into.push(s);
      }
    }
    const key = into.join(',');
    const hit = known.get(key);
    if (hit) return hit;
    const d: DState = { states: into, accept: into.includes(0), next: new Map() };
    if (known.size < DFA_LIMIT) known.set(key, d);
    return d;
  }

  const first = closure([start]);

  function run(input: string): { matched: boolean; steps: number } {
    steps = 1;
    let d = first;
    let i = 0;
    for (; i < input.length && d.states.length > 0; i++) {
      const c = input.charCodeAt(i);
      let to = d.next.get(c);
      if (to) {
        steps++;
      } else {
        const outs: number[] = [];
        for (const s of d.states) {
          const st = states[s]!;
          steps++;
          if (st.t === 'char' && st.test(c)) outs.push(st.out);
        }
        to = closure(outs);
        if (known.size < DFA_LIMIT) d.next.set(c, to);
      }
      d = to;
    }
    return { matched: i === input.length && d.accept, steps };
  }

  return { test: (input) => run(input).matched, run, size: states.length };
}

/** Lower-cases one code unit, as RegExp's `i` flag compares (simple case folding). */
export function lower(c: number): number {
  return String.fromCharCode(c).toLowerCase().charCodeAt(0);
}

/** Upper-cases one code unit. */
export function upper(c: number): number {
  return String.fromCharCode(c).toUpperCase().charCodeAt(0);
}

/** A bounded cache of compiled patterns (document patterns repeat on every call). */
export function wildcardCache<K>(compile: (key: K) => Wildcard, limit = 500): (key: K) => Wildcard {
  const cache = new Map<K, Wildcard>();
  return (key) => {
    let w = cache.get(key);
    if (!w) {
      if (cache.size >= limit) cache.clear();
      w = compile(key);
      cache.set(key, w);
    }
    return w;
  };
}
