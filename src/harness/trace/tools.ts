/**
 * Trace events of tool calls (proposed → validated → started → output → result), the tool pool
 * changing mid-run, and what happened to the sandbox around them: files changed by the agent or
 * the person, commands the person ran in the terminal, the settings files read at run start.
 * Joined into `TraceEvent` in `../trace.ts`.
 */
import type { ToolImage } from '../leaf-types.ts';
import type { PermissionMode } from '../permissions/types.ts';

export type ToolOutputChunk = { stream: 'stdout' | 'stderr'; text: string };

/** Tool calls, the tool pool, the sandbox and the person's terminal. */
export type ToolEventBody =
  | {
      /**
       * The tool pool changed while the run worked (a custom tool saved, edited or deleted): the
       * next request carries `visible`. `hidden`: added tools a bare deny keeps from the model.
       * `loaded`: deferred tools whose schemas now join the list (appended at its end), and `why`
       * (the `tool_search` call that asked for them).
       */
      type: 'tools.changed';
      added: string[];
      removed: string[];
      changed: string[];
      hidden?: { name: string; rule: string }[];
      loaded?: string[];
      why?: string;
      visible: string[];
    }
  // tools
  | { type: 'tool.proposed'; toolUseId: string; name: string; input: unknown }
  | { type: 'tool.validated'; toolUseId: string; name: string; ok: boolean; error?: string }
  | {
      type: 'tool.started';
      toolUseId: string;
      name: string;
      concurrent: boolean;
      /** The input that runs: the proposed one, or a PreToolUse hook's rewrite of it. */
      input?: unknown;
    }
  | { type: 'tool.output'; toolUseId: string; chunk: ToolOutputChunk }
  | {
      type: 'tool.result';
      toolUseId: string;
      name: string;
      content: string;
      isError: boolean;
      ms: number;
      /** Images the result carries to the model after its text (an MCP tool's image content). */
      images?: ToolImage[];
    }
  // sandbox
  | {
      type: 'sandbox.changed';
      paths: string[];
      /**
       * Who changed the files: the agent's tools (absent or 'agent', emitted after a turn's tools
       * wrote) or the person, in the Files panel or the terminal ('user', recorded between pulls).
       */
      origin?: 'agent' | 'user';
    }
  // devkit: settings read from the sandbox, the person's terminal (see src/harness/claude-dir/README.md)
  | {
      /**
       * At run start the sandbox's `.claude/settings.json` (project) and `.claude/settings.local.json`
       * (local) were looked for and read, as Claude Code does; a file that did not parse is left out.
       */
      type: 'settings.read';
      files: SettingsFileRead[];
      /** Every scope in force, highest first (e.g. local, project, scenario). */
      scopes: string[];
      /** Whether what can act in them (hooks, allow rules, modes) applies: the document is trusted. */
      trusted: boolean;
      /** The permission mode in force and who chose it: a scope (`local`, `project` …), `you` (a mode picked for the run) or `default`. */
      mode?: PermissionMode;
      modeFrom?: string;
    }
  | {
      /** The person ran a command in the terminal on the live sandbox: their own, no permission asked. */
      type: 'terminal.command';
      command: string;
      exitCode: number;
      /** Ctrl-C stopped it. */
      interrupted: boolean;
      ms: number;
    };

/** One settings file a run looked for in the sandbox at start (`settings.read`). */
export type SettingsFileRead = {
  path: string;
  scope: 'project' | 'local';
  /** false: the file exists but is not valid settings; `problems` says where. */
  ok: boolean;
  /** Rules the file contributes (before trust), for the event summary. */
  rules: number;
  hooks: number;
  problems: { line: number; column: number; message: string }[];
};
