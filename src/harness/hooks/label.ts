import type { HookRef } from '../trace.ts';

/** One line naming a hook as a `hook.run` event records it: its command, `prompt: …`, `POST <url>`, or the JS hook's name. */
export function hookRunLabel(hook: HookRef | { type: 'js'; name?: string }): string {
  if (hook.type === 'command') return hook.command;
  if (hook.type === 'prompt') return `prompt: ${hook.prompt}`;
  if (hook.type === 'http') return `POST ${hook.url}`;
  return hook.name ?? 'js hook';
}
