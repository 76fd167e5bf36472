/**
 * `type: "prompt"` hooks, as Claude Code runs them: the hook's prompt (with `$ARGUMENTS` replaced
 * by the event's JSON input, or the input appended when it has none) goes to a model through the
 * run's `ModelClient` port; the model answers `{"ok": true}` or `{"ok": false, "reason": "…"}`.
 * `ok: false` is a block (exit 2 with the reason), anything else lets the event go on; a reply
 * that is not that JSON, a failed call or a timeout is a non-blocking error, as for any hook.
 */
import type { ModelClient } from '../ports.ts';
import type { HookInput } from './input.ts';
import type { HookProcessResult } from './interpret.ts';

/** The model a prompt hook asks: the run's client and model id unless the hook names its own model. */
export type PromptHookModel = { client: ModelClient; model: string };

const SYSTEM =
  'You evaluate a hook event of a coding agent. Read the event and the instructions, then answer with JSON only: ' +
  '{"ok": true} to let it go on, or {"ok": false, "reason": "why, for the agent"} to block it.';

export function promptHookText(prompt: string, input: HookInput): string {
  const json = JSON.stringify(input);
  return prompt.includes('$ARGUMENTS') ? prompt.split('$ARGUMENTS').join(json) : `${prompt}\n\nHook input:\n${json}`;
}

export async function runPromptHook(
  hook: { prompt: string; model?: string | undefined },
  input: HookInput,
  model: PromptHookModel,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<HookProcessResult> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), opts.timeoutMs);
  const onAbort = () => ctl.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let text = '';
  try {
    const request = { model: hook.model ?? model.model, max_tokens: 1024, system: SYSTEM, messages: [{ role: 'user' as const, content: promptHookText(hook.prompt, input) }] };
    for await (const ev of model.client.stream(request, ctl.signal)) {
      if (ev.type === 'error') return { exitCode: 1, stdout: '', stderr: `the prompt hook's model call failed: ${ev.error.message}`, timedOut: ctl.signal.aborted && !opts.signal?.aborted };
      if (ev.type === 'content_block_start' && ev.content_block.type === 'text') text += ev.content_block.text;
      if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') text += ev.delta.text;
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (ctl.signal.aborted && !opts.signal?.aborted) return { exitCode: 1, stdout: text, stderr: '', timedOut: true };
  const answer = parseAnswer(text);
  if (!answer) return { exitCode: 1, stdout: text, stderr: `the prompt hook's model did not answer {"ok": true|false, "reason": …}: ${text.slice(0, 200)}`, timedOut: false };
  if (answer.ok) return { exitCode: 0, stdout: text, stderr: '', timedOut: false };
  return { exitCode: 2, stdout: text, stderr: answer.reason ?? 'the prompt hook blocked this without a reason', timedOut: false };
}

function parseAnswer(text: string): { ok: boolean; reason?: string } | null {
  const m = /\{[\s\S]*\}/.exec(text);
  if (!m) return null;
  try {
    const v = JSON.parse(m[0]) as Record<string, unknown>;
    if (typeof v.ok !== 'boolean') return null;
    return { ok: v.ok, ...(typeof v.reason === 'string' ? { reason: v.reason } : {}) };
  } catch {
    return null;
  }
}
