/**
 * Adds one hook to a settings document — the composer's pure half, so the edit is testable
 * without a browser. The hook joins an existing group with the same matcher, or a new group.
 */
import type { HookEventName } from '../../harness/hooks/index.ts';
import type { Settings } from '../../harness/settings/index.ts';

/** `if`: an optional permission-rule condition (`Bash(git *)`); the hook runs only for calls it names. */
export type HookDraft =
  | { event: HookEventName; matcher: string; if?: string; type: 'command'; command: string; timeout?: number }
  | { event: HookEventName; matcher: string; if?: string; type: 'js'; name: string; code: string; timeout?: number };

export function addHook(settings: Settings, draft: HookDraft): Settings {
  const cond = draft.if?.trim() ? { if: draft.if.trim() } : {};
  const hook =
    draft.type === 'command'
      ? { type: 'command' as const, ...cond, command: draft.command, ...(draft.timeout ? { timeout: draft.timeout } : {}) }
      : { type: 'js' as const, ...cond, name: draft.name, code: draft.code, ...(draft.timeout ? { timeout: draft.timeout } : {}) };
  const hooks = { ...(settings.hooks ?? {}) } as NonNullable<Settings['hooks']>;
  const groups = [...(hooks[draft.event] ?? [])];
  const matcher = draft.matcher.trim();
  const at = groups.findIndex((g) => (g.matcher ?? '') === matcher);
  if (at >= 0) groups[at] = { ...groups[at]!, hooks: [...groups[at]!.hooks, hook] };
  else groups.push({ ...(matcher ? { matcher } : {}), hooks: [hook] });
  hooks[draft.event] = groups;
  return { ...settings, hooks };
}

/** A starting point for a JS hook body: the contract in a few lines the author can edit. */
export const JS_HOOK_TEMPLATE = `// \`input\` is the hook's JSON input (tool_name, tool_input, …).
// Return an object to answer with JSON, { block: 'why' } to block (exit 2),
// or nothing to let the call through.
if (input.tool_name === 'bash' && /\\brm\\b/.test(input.tool_input.command)) {
  return { block: 'rm is not allowed here; move files to trash/ instead.' };
}`;
