/** One line naming a hook as a `hook.run` event records it: its command, `prompt: …`, or the JS hook's name. */
export function hookRunLabel(hook: { type: 'command'; command: string } | { type: 'prompt'; prompt: string } | { type: 'js'; name?: string }): string {
  return hook.type === 'command' ? hook.command : hook.type === 'prompt' ? `prompt: ${hook.prompt}` : (hook.name ?? 'js hook');
}
