/**
 * Trace events of memory (see `src/harness/memory/README.md`): the memory text injected into the
 * first user message (which CLAUDE.md files, which memories and why, what was left out) and the
 * facts extracted after an exchange. Joined into `TraceEvent` in `../trace.ts`.
 */
import type { Usage } from '../messages.ts';
import type { MemoryOrigin, MemorySource } from '../leaf-types.ts';

/** Memory events. */
export type MemoryEventBody =
  | {
      /**
       * The memory text sent first in the first user message (and again after a compaction):
       * the CLAUDE.md files found from the root down to the working directory, then the
       * memories ranked most relevant to the prompt, under a token cap.
       */
      type: 'memory.injected';
      files: MemoryFileInfo[];
      chosen: MemoryChoice[];
      left: MemoryLeftOut[];
      /** Missing or cyclic imports, unreadable files, a store that could not be read. */
      problems: MemoryProblem[];
      /** Estimated tokens of the whole memory text (files + memories). */
      tokens: number;
      /** The cap the memories (not the files) had to fit under. */
      cap: number;
      /** The ranking terms taken from the prompt (word stems). */
      terms: string[];
    }
  | {
      /**
       * Facts kept after an exchange (by a model call, or by the deterministic rules), or a
       * compaction's summary kept for the next session (`compaction`).
       */
      type: 'memory.extracted';
      via: 'model' | 'rules' | 'compaction';
      added: { id: string; content: string; source: MemorySource }[];
      /** Facts dropped because an entry already says the same (normalised text). */
      duplicates: { content: string; of: string }[];
      /** Lines of the model's reply that did not parse, a failed call, … */
      problems: string[];
      /** Via `model`: the extraction call's model and usage (priced as its own `memory_extraction` line). */
      call?: { model: string; usage: Usage };
    };

/** One CLAUDE.md (or imported) file in the memory text. */
export type MemoryFileInfo = { path: string; importedFrom?: string; tokens: number };

/** A memory that made it into the text, with how it scored. */
export type MemoryChoice = {
  id: string;
  content: string;
  source: MemorySource;
  /** keyword + recency. */
  score: number;
  keyword: number;
  recency: number;
  tokens: number;
  /** Where the memory came from (absent: stored before origins existed, "user (legacy)"). */
  origin?: MemoryOrigin;
  /** The keyword multiplier from idleness (`memory/decay.ts`); 1 = just used. */
  decay?: number;
  /** The bonus for earlier use, 0.05 × log2(1 + references). */
  use?: number;
  /** Runs it was injected into before this one. */
  references?: number;
};

/** A memory that was left out, and why. */
export type MemoryLeftOut = {
  id: string;
  /** The first characters of the memory. */
  content: string;
  score: number;
  /** `decayed`: an extracted memory unused for 90 days, pruned from the store (`memory/decay.ts`). */
  reason: 'no_match' | 'over_cap' | 'max_entries' | 'other_document' | 'decayed';
};

export type MemoryProblem = {
  kind: 'missing' | 'cycle' | 'too_deep' | 'unreadable' | 'truncated' | 'store';
  path?: string;
  importedFrom?: string;
  message: string;
};
