/**
 * Builds the memory text the loop sends first in the first user message: the CLAUDE.md files
 * (always, in discovery order), then the memories most relevant to the prompt (see `rank.ts`),
 * best first, as long as they fit under a token cap. Returns the `memory.injected` event body
 * too, so a person can see what went in, what was left out, and why.
 */
import type { MemoryEntry } from '../ports.ts';
import type { MemoryChoice, MemoryLeftOut, MemoryProblem, TraceEventBody } from '../trace.ts';
import { estimateTextTokens } from '../context/tokens.ts';
import type { ClaudeMdResult } from './claude-md.ts';
import { rankMemories, terms } from './rank.ts';

/** Tokens (chars/4) the memories may take together; the CLAUDE.md files are not counted in it. */
export const DEFAULT_MEMORY_TOKEN_CAP = 400;
/** Injected memories at most, however small. */
export const DEFAULT_MAX_MEMORIES = 8;

export type MemoryInjectedEvent = Extract<TraceEventBody, { type: 'memory.injected' }>;

export type SelectOptions = {
  entries: readonly MemoryEntry[];
  /** The prompt the memories are ranked against. */
  prompt: string;
  /** For the recency bonus (the injected clock's time). */
  now: number;
  claudeMd?: ClaudeMdResult;
  tokenCap?: number;
  maxEntries?: number;
  /** Memories that may not go into this run at all (another document's): listed as `other_document`. */
  excluded?: readonly MemoryEntry[];
  /** More problems to report with the event (e.g. the store could not be read). */
  problems?: MemoryProblem[];
  /** Memories pruned by decay before ranking (`decay.ts`): listed as `decayed`. */
  decayed?: readonly MemoryEntry[];
};

export type MemorySelection = {
  /** '' when there are no files and no memories: then nothing is injected. */
  text: string;
  event: MemoryInjectedEvent;
};

const HEADER =
  'Project memory. The CLAUDE.md files below are instructions from the project and its user: follow them, ' +
  'they override default behaviour. The memories are facts kept from earlier sessions: use the ones that apply.';

const bullet = (content: string) => `- ${content.replace(/\s+/g, ' ').trim()}`;
const preview = (content: string) => {
  const one = content.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
};

function newestSummary(entries: readonly MemoryEntry[]): MemoryEntry | undefined {
  return entries.filter((e) => e.source === 'compaction_summary').reduce<MemoryEntry | undefined>((a, e) => (!a || e.createdAt >= a.createdAt ? e : a), undefined);
}

export function selectMemories(opts: SelectOptions): MemorySelection {
  const cap = opts.tokenCap ?? DEFAULT_MEMORY_TOKEN_CAP;
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_MEMORIES;
  const chosen: MemoryChoice[] = [];
  const left: MemoryLeftOut[] = [];
  let used = 0;
  // The newest compaction summary is where the last session left off: offered without a keyword match.
  const lastSummary = newestSummary(opts.entries);
  for (const s of rankMemories(opts.entries, opts.prompt, opts.now)) {
    const line = bullet(s.entry.content);
    const tokens = estimateTextTokens(`${line}\n`);
    const out = (reason: MemoryLeftOut['reason']) => left.push({ id: s.entry.id, content: preview(s.entry.content), score: s.score, reason });
    if (s.keyword === 0 && s.entry !== lastSummary) out('no_match');
    else if (chosen.length >= maxEntries) out('max_entries');
    // Greedy with skipping: a long memory that does not fit leaves room for shorter, lower ones.
    else if (used + tokens > cap) out('over_cap');
    else {
      used += tokens;
      chosen.push({
        id: s.entry.id,
        content: s.entry.content,
        source: s.entry.source,
        score: s.score,
        keyword: s.keyword,
        recency: s.recency,
        tokens,
        ...(s.entry.origin ? { origin: s.entry.origin } : {}),
        decay: s.decay,
        use: s.use,
        references: s.entry.references ?? 0,
      });
    }
  }
  for (const e of opts.decayed ?? []) left.push({ id: e.id, content: preview(e.content), score: 0, reason: 'decayed' });
  for (const e of opts.excluded ?? []) left.push({ id: e.id, content: preview(e.content), score: 0, reason: 'other_document' });

  const parts: string[] = [];
  if (opts.claudeMd?.text) parts.push(opts.claudeMd.text);
  if (chosen.length > 0) parts.push(`Memories:\n${chosen.map((c) => bullet(c.content)).join('\n')}`);
  const text = parts.length === 0 ? '' : `<system-reminder>\n${HEADER}\n\n${parts.join('\n\n')}\n</system-reminder>`;
  return {
    text,
    event: {
      type: 'memory.injected',
      files: opts.claudeMd?.files ?? [],
      chosen,
      left,
      problems: [...(opts.claudeMd?.problems ?? []), ...(opts.problems ?? [])],
      tokens: estimateTextTokens(text),
      cap,
      terms: [...new Set(terms(opts.prompt))],
    },
  };
}
