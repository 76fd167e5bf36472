/**
 * Hook matchers, as Claude Code reads them:
 * - `*`, empty or absent: everything;
 * - names and `|` only (`bash`, `edit|write`): a list of exact names;
 * - anything else: a regular expression that must match the WHOLE value (anchored),
 *   case-sensitive. Observed in Claude Code: a plain word matches the whole tool name, not a
 *   substring, and `bash` does not match `Bash`.
 *
 * What a matcher is tested against depends on the event ({@link matcherSubject}): the tool name
 * for tool events, `source` for SessionStart, `trigger` for PreCompact / PostCompact; the other
 * events ignore it.
 *
 * Our tool names are lower-case (`bash`, `agent`, `todo_write`, …) while Claude Code settings say
 * `Bash`, `Agent`, `TodoWrite`. So that a pasted Claude Code config works, a tool is matched under
 * our name and each Claude Code name of the same tool (`permissions/tool-names.ts`: `agent` is
 * also `Agent` and `Task`); the comparison stays case-sensitive.
 */
import type { HookEventName } from './config.ts';
import { compileSafeRegex } from '../util/safe-regex.ts';
import { CLAUDE_CODE_NAMES_OF } from '../permissions/tool-names.ts';

export type CompiledMatcher =
  | { ok: true; kind: 'all' | 'list' | 'regex'; test: (value: string) => boolean }
  | { ok: false; error: string };

const NAME_LIST = /^[\w-]+(\s*\|\s*[\w-]+)*$/;

/** Compile once; an invalid regex gives `{ ok: false }` (callers treat it as never matching). */
export function compileMatcher(matcher: string | undefined): CompiledMatcher {
  const m = (matcher ?? '').trim();
  if (m === '' || m === '*') return { ok: true, kind: 'all', test: () => true };
  if (NAME_LIST.test(m)) {
    const names = new Set(m.split('|').map((n) => n.trim()));
    return { ok: true, kind: 'list', test: (v) => names.has(v) };
  }
  // RE2 (linear time): a matcher from a document cannot freeze the tab (`util/safe-regex.ts`).
  const r = compileSafeRegex(`^(?:${m})$`);
  if (r.ok) return { ok: true, kind: 'regex', test: (v) => r.regex.test(v) };
  const why = r.error.replace(/^"[^]*?" is not a valid regular expression /, '');
  return { ok: false, error: `matcher ${JSON.stringify(m)} is not a valid regular expression ${why}; its hooks never run. Fix the pattern or use names separated by "|".` };
}

/** Events whose matcher is tested against the tool name. */
const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure']);

/** The other events with a matcher, and the input field it is tested on (Claude Code's hooks reference). */
const MATCHED_FIELD: Partial<Record<HookEventName, string>> = {
  SessionStart: 'source',
  PreCompact: 'trigger',
  PostCompact: 'trigger',
  SessionEnd: 'reason',
  StopFailure: 'error',
  Notification: 'notification_type',
  SubagentStart: 'agent_type',
  SubagentStop: 'agent_type',
  ConfigChange: 'source',
  InstructionsLoaded: 'load_reason',
  UserPromptExpansion: 'command_name',
};

/**
 * The values a matcher is tested against for this event and input (any one matching is a match),
 * or `null` when the event ignores matchers.
 */
export function matcherSubject(event: HookEventName, input: Record<string, unknown>): string[] | null {
  if (TOOL_EVENTS.has(event)) {
    const name = typeof input.tool_name === 'string' ? input.tool_name : '';
    return [name, ...(CLAUDE_CODE_NAMES_OF[name] ?? [])];
  }
  const field = MATCHED_FIELD[event];
  if (field) return [typeof input[field] === 'string' ? input[field] : ''];
  return null;
}

/** Whether a compiled matcher selects this event's input. Invalid matchers never match. */
export function matches(compiled: CompiledMatcher, subject: string[] | null): boolean {
  if (subject === null) return true;
  if (!compiled.ok) return false;
  return subject.some((s) => compiled.test(s));
}
