/**
 * Adds one hook to a settings document — the composer's pure half, so the edit is testable
 * without a browser. The hook joins an existing group with the same matcher, or a new group.
 */
import type { HookEventName } from '../../harness/hooks/index.ts';
import type { Settings } from '../../harness/settings/index.ts';

type DraftBase = { event: HookEventName; matcher: string; if?: string; timeout?: number };

/**
 * One hook as the composer drafts it. `command`, `prompt` and `http` are Claude Code's handler
 * types, written in exactly its settings.json shape; `js` is ours (a Worker, for prototyping).
 * `if`: an optional permission-rule condition (`Bash(git *)`); the hook runs only for calls it names.
 */
export type HookDraft = DraftBase &
  (
    | { type: 'command'; command: string }
    | { type: 'js'; name: string; code: string }
    | { type: 'prompt'; prompt: string; model?: string }
    | { type: 'http'; url: string; headers?: Record<string, string>; allowedEnvVars?: string[] }
  );

/** The handler object for settings.json, keys in Claude Code's order, empty optional keys left out. */
function handlerOf(draft: HookDraft) {
  const cond = draft.if?.trim() ? { if: draft.if.trim() } : {};
  const timeout = draft.timeout ? { timeout: draft.timeout } : {};
  switch (draft.type) {
    case 'command':
      return { type: 'command' as const, ...cond, command: draft.command, ...timeout };
    case 'js':
      return { type: 'js' as const, ...cond, name: draft.name, code: draft.code, ...timeout };
    case 'prompt':
      return { type: 'prompt' as const, ...cond, prompt: draft.prompt, ...(draft.model?.trim() ? { model: draft.model.trim() } : {}), ...timeout };
    case 'http': {
      const headers = draft.headers && Object.keys(draft.headers).length > 0 ? { headers: draft.headers } : {};
      const env = draft.allowedEnvVars && draft.allowedEnvVars.length > 0 ? { allowedEnvVars: draft.allowedEnvVars } : {};
      return { type: 'http' as const, ...cond, url: draft.url.trim(), ...headers, ...env, ...timeout };
    }
  }
}

export function addHook(settings: Settings, draft: HookDraft): Settings {
  const hook = handlerOf(draft);
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

/** A starting point for a prompt hook: `$ARGUMENTS` is replaced by the event's JSON input. */
export const PROMPT_HOOK_TEMPLATE =
  'Block this call if it deletes files outside /home/project/tmp: $ARGUMENTS. ' +
  'Answer {"ok": true} to let it go on, or {"ok": false, "reason": "…"} to block it.';

/**
 * The composer's header lines (`Name: value`, one a line, as curl writes them) → `headers`, or the
 * first line that is not a header. Blank lines are skipped; a value may hold `$VAR` / `${VAR}`.
 */
export function parseHeaderLines(text: string): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  const headers: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return { ok: false, error: `header line ${i + 1} is not "Name: value": ${line}` };
    headers[name] = line.slice(colon + 1).trim();
  }
  return { ok: true, headers };
}

/** `MY_TOKEN, OTHER` → `['MY_TOKEN', 'OTHER']` (commas or spaces; a leading `$` dropped: the list takes bare names). */
export function parseEnvVarList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((v) => v.replace(/^\$\{?|\}$/g, ''))
    .filter(Boolean);
}

/** Names a header value uses (`$VAR`, `${VAR}`) that `allowed` does not list: Claude Code sends them empty. */
export function unlistedEnvVars(headers: Record<string, string>, allowed: readonly string[]): string[] {
  const used = Object.values(headers).flatMap((v) => [...v.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g)].map((m) => m[1]!));
  return [...new Set(used.filter((v) => !allowed.includes(v)))];
}
