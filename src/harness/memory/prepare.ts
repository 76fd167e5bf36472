/**
 * One call for the loop's caller: find the CLAUDE.md files, read the store, rank, build the
 * text. A store that fails to open is reported in the event (kind `store`) and the run goes on
 * with the files alone — memory is a help, never a reason for a run not to start.
 */
import type { MemoryStore } from '../ports.ts';
import type { MemoryProblem } from '../trace.ts';
import { discoverClaudeMd, type ClaudeMdOptions, type MemoryFsReader } from './claude-md.ts';
import { selectMemories, type MemorySelection } from './select.ts';
import { injectableInto } from './origin.ts';
import { isDecayed, referenced } from './decay.ts';

export type PrepareMemoryOptions = {
  /** The sandbox's fs (after it has been seeded). */
  fs: MemoryFsReader;
  /** The agent's working directory: CLAUDE.md files are read from `/` down to here. */
  cwd: string;
  store?: MemoryStore;
  prompt: string;
  now: number;
  tokenCap?: number;
  maxEntries?: number;
  claudeMd?: ClaudeMdOptions;
  /**
   * Trust key of the document this run comes from. A document's own memories go only into runs
   * of that same document; without one, no document's memories do (see `origin.ts`).
   */
  documentHash?: string;
  /** Leave the CLAUDE.md files out (an untrusted document's, in a live run the user chose to run without them). */
  skipClaudeMd?: boolean;
};

export async function prepareMemory(opts: PrepareMemoryOptions): Promise<MemorySelection> {
  const claudeMd = opts.skipClaudeMd ? { text: '', files: [], problems: [] } : await discoverClaudeMd(opts.fs, opts.cwd, opts.claudeMd);
  const problems: MemoryProblem[] = [];
  let entries: Awaited<ReturnType<MemoryStore['list']>> = [];
  if (opts.store) {
    try {
      entries = await opts.store.list();
    } catch (err) {
      problems.push({ kind: 'store', message: `memories were not read: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
  const otherDocument = entries.filter((e) => !injectableInto(e, opts.documentHash));
  // Decay (decay.ts): extracted memories nobody was given for 90 days leave the store.
  const mine = entries.filter((e) => injectableInto(e, opts.documentHash));
  const decayed = opts.store ? mine.filter((e) => isDecayed(e, opts.now)) : [];
  for (const e of decayed) {
    try {
      await opts.store!.delete(e.id);
    } catch (err) {
      problems.push({ kind: 'store', message: `a decayed memory was not pruned: ${err instanceof Error ? err.message : String(err)}` });
    }
  }
  const selection = selectMemories({
    entries: mine.filter((e) => !decayed.includes(e)),
    decayed,
    excluded: otherDocument,
    prompt: opts.prompt,
    now: opts.now,
    claudeMd,
    problems,
    ...(opts.tokenCap !== undefined ? { tokenCap: opts.tokenCap } : {}),
    ...(opts.maxEntries !== undefined ? { maxEntries: opts.maxEntries } : {}),
  });
  // Each chosen memory counts one more reference (what keeps it from decaying).
  if (opts.store) {
    const byId = new Map(mine.map((e) => [e.id, e]));
    for (const c of selection.event.chosen) {
      const e = byId.get(c.id);
      if (!e) continue;
      try {
        await opts.store.put(referenced(e, opts.now));
      } catch (err) {
        selection.event.problems.push({ kind: 'store', message: `the use of "${c.content.slice(0, 40)}" was not counted: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
  }
  return selection;
}
