/**
 * The trace events of the agents layer, joined into `TraceEvent` in `trace.ts`. Plain JSON, like
 * every event: the session log stores them and the skills panel and task board are built from them.
 */
import type { Task } from './tasks/graph.ts';
import type { JobStatus } from './background/job-status.ts';
import type { SkillOrigin, SkillProblem } from './skills/skill-file.ts';

/** What the model sees of one skill before loading it (its line in the `skill` tool's description). */
export type SkillListing = {
  name: string;
  description: string;
  origin: SkillOrigin;
  path: string;
  /** Tokens of the skill's line in the prompt. */
  descriptionTokens: number;
  /** Tokens the body would add when loaded. */
  bodyTokens: number;
  allowedTools: string[];
  files: string[];
};

/**
 * `R` is the loop's exit reason (`ExitReason` in `trace.ts`), passed in rather than imported so that
 * this file and the union that includes it do not import each other.
 */
export type AgentEventBody<R extends string = string> =
  | {
      /** The skills of this run, once at its start: only these descriptions are in the prompt. */
      type: 'skills.available';
      skills: SkillListing[];
      /** SKILL.md files that could not be read, with file and line; the others still loaded. */
      problems: SkillProblem[];
      /** Tokens of the whole listing (what the skills cost on every call). */
      tokens: number;
    }
  | {
      /**
       * A skill's body entered the conversation: the model called `skill` (`via: tool`), or an
       * auto-compact removed it and the harness re-attached it after the summary (`via: reattach`).
       */
      type: 'skill.loaded';
      name: string;
      origin: SkillOrigin;
      path: string;
      via: 'tool' | 'reattach';
      toolUseId?: string;
      description: string;
      descriptionTokens: number;
      body: string;
      bodyTokens: number;
      files: string[];
      allowedTools: string[];
      /** Allow rules added for the rest of the run from `allowed-tools`. */
      granted: string[];
    }
  | { /** A task was added to `.tasks/`; `tasks` is the whole graph after it. */ type: 'task.created'; task: Task; tasks: Task[] }
  | {
      /** A slash command typed as the prompt (`/compact focus on the tests`); the loop runs it instead of asking the model, or expands a custom one. */
      type: 'slash.command';
      name: string;
      args: string;
      /** `builtin` (Claude Code's own), `custom` (`.claude/commands/*.md`, expanded into the prompt), `unknown` (nothing ran), `untrusted` (a custom command of an untrusted document: not run). */
      kind?: 'builtin' | 'custom' | 'unknown' | 'untrusted';
      /** The page's panel this command opens (`/cost` → `cost`). */
      panel?: string;
      /** What the command prints headless (`/context`'s breakdown); the page shows its panel instead. */
      output?: string;
      /** A custom command: its file, and the rules its `allowed-tools` grant for this prompt only. */
      path?: string;
      allowedTools?: string[];
      /** A custom command's `model:` for this prompt. */
      model?: string;
      /** Warnings about the command (an `allowed-tools` entry naming no tool here, an invalid rule). */
      warnings?: string[];
    }
  | { /** The run's permission mode changed (an approved plan: `exit_plan_mode`); later calls are judged in `to`. */ type: 'permission.mode_changed'; from: string; to: string; why: string }
  | { /** A task changed (status, owner, wording, dependencies); `tasks` is the whole graph after it. */ type: 'task.updated'; task: Task; changes: string[]; tasks: Task[] }
  | { /** The model listed the tasks; the board as read from `.tasks/`. */ type: 'task.listed'; tasks: Task[] }
  | {
      /** A background job finished; its notification was put before the next model call. */
      type: 'background.notification';
      jobId: string;
      command: string;
      status: JobStatus;
      exitCode?: number;
      /** Milliseconds it ran. */
      ms: number;
      /** The text the model receives. */
      text: string;
    }
  | {
      /**
       * The run ended (stopped, out of turns, an error) with background jobs still running: they
       * were stopped with it, so no job outlives its run. `ms` is how long each had run.
       */
      type: 'background.stopped';
      reason: R;
      jobs: { id: string; command: string; ms: number }[];
    }
  | {
      /**
       * A message the person typed while the agent worked (or a scenario's scripted one), delivered
       * at the safe point: after the tool results, before the next model call.
       */
      type: 'interrupt.received';
      text: string;
      source: 'user' | 'scenario' | 'file';
      /** The model call it goes in front of. */
      beforeTurn: number;
    };
