/**
 * The course glossary: the words the explanations use, each defined once. Explanations name the
 * terms they lean on (`terms`), and the explain view links each to its entry here.
 */

export const GLOSSARY_TERMS = [
  'turn',
  'transition',
  'continue-site',
  'exit',
  'budget',
  'prefix',
  'breakpoint',
  'compaction-layer',
  'projection',
  'permission-stage',
  'permission-mode',
  'rule',
  'hook-event',
  'trust',
  'tool-use-id',
  'memory',
  'session',
  'log-seq',
  'subagent',
  'safe-point',
  'workspace',
  'mcp',
  'replay',
] as const;

export type GlossaryTerm = (typeof GLOSSARY_TERMS)[number];

export type GlossaryEntry = { term: string; definition: string; lesson: string };

/** Every term, its definition in two or three sentences, and the lesson that shows it best. */
export const GLOSSARY: Record<GlossaryTerm, GlossaryEntry> = {
  turn: {
    term: 'Turn',
    definition:
      'One model call and everything it causes: the request, the streamed reply, the tool calls it asks for and their results. A run is a sequence of turns; a retry of the same call stays in the same turn.',
    lesson: 'parallel-exploration',
  },
  transition: {
    term: 'Transition',
    definition:
      'The loop’s decision at the end of a turn, stamped with a reason: go round again (a continue reason such as `next_turn`) or stop (an exit reason such as `completed`). Every way out of a turn is one of a fixed list of reasons.',
    lesson: 'lesson-follow-ups',
  },
  'continue-site': {
    term: 'Continue site',
    definition:
      'A place in the loop that sends it round again instead of ending: the tool site (`next_turn`), max-tokens recovery, the malformed-input nudge, the empty-reply nudge, a retry after a model error, the reactive compact, a blocking Stop hook. Each has its own budget so the loop cannot spin forever.',
    lesson: 'max-tokens-recovery',
  },
  exit: {
    term: 'Exit',
    definition:
      'The final transition of a run (`completed`, `max_turns`, `aborted`, `model_error`, `refusal`, `prompt_blocked`, `hook_stopped`, `max_budget`). It is followed by exactly one `run.end`.',
    lesson: 'max-turns',
  },
  budget: {
    term: 'Budget',
    definition:
      'How many times a continue site may fire before the loop gives up: 3 max-tokens recoveries in a row, 4 model retries, one empty-reply nudge, 3 Stop-hook blocks, one reactive compact per turn, and the max-turns limit over the whole run.',
    lesson: 'flaky-model',
  },
  prefix: {
    term: 'Prefix (prompt cache)',
    definition:
      'The start of a request that is identical to the previous request: model, tools, system prompt, then messages in order. The API reuses its cached work for a matching prefix; any change early in the request (a tool list, the system prompt, an edited old message) breaks it and everything after is paid for again.',
    lesson: 'cache-breakage',
  },
  breakpoint: {
    term: 'Breakpoint',
    definition:
      'A place where Run stops by itself, like a debugger: an event type, a transition reason or a tool name. Lessons set breakpoints at the moments worth looking at; you can add your own in the Stepper tab. (The API also has cache breakpoints — `cache_control` marks — which are a different thing.)',
    lesson: 'lesson-follow-ups',
  },
  'compaction-layer': {
    term: 'Compaction layer',
    definition:
      'One of five steps that run before every model call to keep the request under the context window, cheap to expensive: budget reduction (large tool results become references), snip (old messages drop out of a window), microcompact (old tool results trimmed, cache-aware), collapse (ranges summarised in the projection) and auto-compact (the whole history summarised). A layer is idle when its threshold is not reached.',
    lesson: 'budget-reduction',
  },
  projection: {
    term: 'Projection',
    definition:
      'What the model is actually sent, as opposed to the stored history. Some layers only change the projection (collapse), others commit their change to the stored history (`history.rewritten`).',
    lesson: 'context-collapse',
  },
  'permission-stage': {
    term: 'Permission stage',
    definition:
      'One step of the pipeline every tool call passes before it runs, in order: validate → tool check → hooks → rules → mode → prompt. A stage may decide (allow or deny) or pass the call on; the first stage that decides ends the pipeline. Tools a bare deny rule names are hidden before the request (the pre-filter).',
    lesson: 'deny-beats-allow',
  },
  'permission-mode': {
    term: 'Permission mode',
    definition:
      '`default` asks for anything not read-only, `acceptEdits` allows file edits inside the working directory, `plan` denies anything that changes state, `dontAsk` denies what would have asked, `bypassPermissions` allows all but protected actions. The mode stage runs only when no rule decided.',
    lesson: 'plan-mode',
  },
  rule: {
    term: 'Permission rule',
    definition:
      'An `allow`, `ask` or `deny` entry such as `Bash(npm test *)` or `Read(./.env)`. Rules are checked deny → ask → allow and the first match wins, so a deny always beats an allow, however specific the allow is.',
    lesson: 'deny-beats-allow',
  },
  'hook-event': {
    term: 'Hook event',
    definition:
      'A named moment at which configured hooks run: SessionStart, InstructionsLoaded, UserPromptSubmit, PreToolUse, PermissionRequest, PermissionDenied, PostToolUse, PostToolUseFailure, SubagentStart/Stop, TaskCreated/TaskCompleted, Stop or StopFailure, TeammateIdle, PreCompact, PostCompact, ConfigChange, WorktreeCreate/Remove, SessionEnd … A hook gets the event as JSON and answers with an exit code and optional JSON (allow, deny, block, rewrite the input, stop).',
    lesson: 'pretooluse-hook-blocks',
  },
  trust: {
    term: 'Trust',
    definition:
      'Whether the settings of a shared scenario may act. Until you trust it, its hooks do not run and its allow rules and permissive modes are ignored (deny and ask rules still apply), so you see permission prompts the author did not.',
    lesson: 'ask-permission',
  },
  'tool-use-id': {
    term: 'Tool use id',
    definition:
      'The id (`toolu_…`) that ties a `tool_use` block in the model’s reply to the `tool_result` the harness sends back. Every tool call event carries it; the API rejects a history where a call has no result.',
    lesson: 'parallel-exploration',
  },
  memory: {
    term: 'Memory',
    definition:
      'Text the harness puts in front of the first user message: the CLAUDE.md files from the root down to the working directory, then saved memories ranked by how well they match the prompt, under a token cap.',
    lesson: 'memory-claude-md',
  },
  session: {
    term: 'Session',
    definition:
      'One conversation kept in IndexedDB: the log of every event of every run in it, so it can be resumed, forked at an event, or rewound.',
    lesson: 'lesson-follow-ups',
  },
  'log-seq': {
    term: 'Log seq',
    definition:
      'The position of an event in the session’s log, counted from 1 across all runs. The event’s own `seq` restarts at every run; the log seq does not, which is what lesson notes and questions point at.',
    lesson: 'lesson-follow-ups',
  },
  subagent: {
    term: 'Subagent',
    definition:
      'A fresh instance of the same loop, started by the `agent` tool: its own messages (only the prompt it was given), system prompt, tools, permission mode and turn limit, on the same sandbox. Its parent receives only its final text and a short usage trailer.',
    lesson: 'delegate-parallel-subagents',
  },
  'safe-point': {
    term: 'Safe point',
    definition:
      'The one place in an iteration where the harness may add to the conversation on its own: after the tool results of a turn, before the next model call. Steering messages and background-job notifications are delivered there, never mid-call or mid-tool.',
    lesson: 'steering-mid-run',
  },
  workspace: {
    term: 'Isolated workspace',
    definition:
      'An agent’s own copy of the working tree (Claude Code’s `isolation: worktree`): it reads the files as they were when the copy was taken and its writes stay in the copy. When it finishes, its changes are merged back; a file someone else changed in the meantime is a conflict, never silently overwritten. In a git project the copy is a linked worktree on its own branch (`agent/…`): the agent’s work is committed there and merged back with a merge commit.',
    lesson: 'isolated-workspaces-overlap',
  },
  mcp: {
    term: 'MCP server',
    definition:
      'A program that offers tools over the Model Context Protocol (JSON-RPC): the harness connects to it, lists its tools and adds each as `mcp__<server>__<tool>`. Its tools go through the same permission rules, hooks and result handling as the built-ins; only the call goes over the wire.',
    lesson: 'mcp-in-page-server',
  },
  replay: {
    term: 'Replay',
    definition:
      'A run whose model is a script: recorded or authored replies, played back one per model call with no key and no network. The tools still really run, so when a rule, a hook or a file has changed, a tool can return something the recording never saw; the scripted replies do not react to it, and the replay says it has diverged.',
    lesson: 'replay-diverges',
  },
};
